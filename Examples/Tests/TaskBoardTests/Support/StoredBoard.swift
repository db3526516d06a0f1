import Foundation
import GRDB

@testable import TaskBoard

/// What a data folder's database holds, read as another process would, for the tests that run the
/// `taskboard` binary.
enum StoredBoard {
    /// The tasks in `<folder>/tasks.sqlite`, in id order.
    static func tasks(in folder: String) throws -> [TaskItem] {
        let url = URL(fileURLWithPath: folder).appendingPathComponent("tasks.sqlite")
        let database = try TaskDatabase(url: url, options: TaskDatabase.Options(readOnly: true))
        defer { database.close() }
        return try database.loadAll()
    }

    static func titles(in folder: String) throws -> [String] {
        try tasks(in: folder).map(\.title)
    }

    /// `PRAGMA integrity_check` on `<folder>/tasks.sqlite`: `["ok"]` when it is sound.
    static func integrity(in folder: String) throws -> [String] {
        let url = URL(fileURLWithPath: folder).appendingPathComponent("tasks.sqlite")
        let database = try TaskDatabase(url: url, options: TaskDatabase.Options(readOnly: true))
        defer { database.close() }
        return try database.queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }
}
