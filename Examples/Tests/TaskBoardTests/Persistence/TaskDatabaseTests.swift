import Foundation
import GRDB
import Testing

@testable import TaskBoard

/// `TaskDatabase` on a real file in a temporary folder: the schema, batches by id, ids from the
/// database, and the faults (a lock, a read-only database, a full disk, rows that make no task).
@Suite(.timeLimit(.minutes(1))) struct TaskDatabaseTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var url: URL { folder.appendingPathComponent("tasks.sqlite") }

    private func open(_ options: TaskDatabase.Options = TaskDatabase.Options()) throws -> TaskDatabase {
        try TaskDatabase(url: url, options: options)
    }

    private let milk = TaskItem(id: 1, title: "Buy milk", tags: ["home"], due: Day(year: 2025, month: 3, day: 14))
    private let report = TaskItem(id: 2, title: "Ünïcode ✓ 'quoted'", isDone: true, tags: ["a/b", "work"])

    @Test func storesEveryFieldAndLoadsByID() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try open()
        try await database.apply(upserts: [report, milk], deletions: [])
        #expect(try database.loadAll() == [milk, report])
        var renamed = milk
        renamed.title = "Buy oat milk"
        renamed.due = nil
        try await database.apply(upserts: [renamed], deletions: [2])
        database.close()
        #expect(try open().loadAll() == [renamed])
    }

    @Test func theDatabaseIsInWALModeWithItsSchemaAndMigrations() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try open()
        let (mode, tables, applied) = try database.queue.read { db in
            (
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"),
                try TaskDatabase.migrator.appliedMigrations(db)
            )
        }
        #expect(mode == "wal")
        #expect(tables == ["board", "grdb_migrations", "tasks"])
        #expect(applied == ["v1"])
    }

    @Test func aBatchTouchesOnlyItsOwnIDs() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try open()
        let second = try open()
        try await first.apply(upserts: [milk], deletions: [])
        try await second.apply(upserts: [report], deletions: [])
        var done = milk
        done.isDone = true
        // The first connection never saw task 2: its batch leaves it alone.
        try await first.apply(upserts: [done], deletions: [])
        #expect(try second.loadAll() == [done, report])
        try await second.apply(upserts: [], deletions: [1, 99])
        #expect(try first.loadAll() == [report])
    }

    @Test func reservedIDsFollowTheLargestStoredIDAndAreNeverGivenTwice() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try open()
        #expect(try await database.reserveID() == 1)
        #expect(try await database.reserveID() == 2)
        try await database.apply(upserts: [TaskItem(id: 10, title: "Imported")], deletions: [])
        #expect(try await database.reserveID() == 11)
        // Deleting the largest task does not hand its id out again.
        try await database.apply(upserts: [], deletions: [10])
        #expect(try await database.reserveID() == 12)
        #expect(try database.snapshot().nextID == 13)
    }

    @Test func twoConnectionsAddingAtOnceKeepEveryTaskUnderDistinctIDs() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each waits for the other's lock longer than the default 5 s, which a connection descheduled on a
        // machine busy with other work can take to let go of it.
        let patient = TaskDatabase.Options(busyTimeout: 60)
        let connections = [try open(patient), try open(patient)]
        let perConnection = 25
        let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
            for (index, database) in connections.enumerated() {
                group.addTask {
                    var ids: [Int] = []
                    for number in 0..<perConnection {
                        let id = try await database.reserveID()
                        try await database.apply(
                            upserts: [TaskItem(id: id, title: "c\(index) #\(number)")],
                            deletions: []
                        )
                        ids.append(id)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(Set(ids).count == 2 * perConnection)
        let stored = try connections[0].loadAll()
        #expect(stored.map(\.id) == ids.sorted())
        #expect(Set(stored.map(\.title)).count == 2 * perConnection)
    }

    @Test func aWriteThatWaitsTooLongForTheLockFailsAsLocked() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let waiter = try open(TaskDatabase.Options(busyTimeout: 0.05))
        // Another process's connection, holding the write lock between two accesses.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: url.path, configuration: configuration)
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let error = await #expect(throws: TaskDatabaseError.self) {
            try await waiter.apply(upserts: [milk], deletions: [])
        }
        #expect(error?.kind == .locked)
        #expect(error?.description == "\(url.path): the database is locked by another process (waited 50 ms)")
        #expect(error?.isPermanent == false)
        let reserve = await #expect(throws: TaskDatabaseError.self) { try await waiter.reserveID() }
        #expect(reserve?.kind == .locked)
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        // Once the lock is released, the same write goes through.
        try await waiter.apply(upserts: [milk], deletions: [])
        #expect(try waiter.loadAll() == [milk])
    }

    @Test func aReadOnlyDatabaseRefusesWritesAndKeepsItsTasks() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let writable = try open()
        try await writable.apply(upserts: [milk], deletions: [])
        writable.close()
        let readOnly = try open(TaskDatabase.Options(readOnly: true))
        #expect(try readOnly.loadAll() == [milk])
        let error = await #expect(throws: TaskDatabaseError.self) {
            try await readOnly.apply(upserts: [report], deletions: [])
        }
        #expect(error?.kind == .readOnly)
        #expect(error?.isPermanent == true)
        #expect(error?.description.hasPrefix("\(url.path): the database is read-only (") == true)
    }

    @Test func aFullDiskFailsTheWholeBatchAndKeepsWhatWasStored() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try open()
        try await database.apply(upserts: [milk], deletions: [])
        let pages = try await database.queue.read { db in try Int.fetchOne(db, sql: "PRAGMA page_count") } ?? 0
        database.close()
        let full = try open(TaskDatabase.Options(maxPageCount: pages))
        let big = (2...40).map { TaskItem(id: $0, title: String(repeating: "x", count: 1_000)) }
        let error = await #expect(throws: TaskDatabaseError.self) {
            try await full.apply(upserts: big, deletions: [1])
        }
        #expect(error?.kind == .diskFull)
        #expect(error?.description == "\(url.path): disk full")
        #expect(try full.loadAll() == [milk], "the batch is one transaction: none of it, not even the deletion")
    }

    @Test func aRowThatMakesNoTaskIsReportedWithItsID() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try open()
        try await database.apply(upserts: [milk], deletions: [])
        try await database.queue.write { db in
            try db.execute(sql: "INSERT INTO tasks (id, title, due) VALUES (7, 'Edited by hand', 'soon')")
        }
        let error = #expect(throws: TaskDatabaseError.self) { try database.loadAll() }
        #expect(error?.kind == .corrupt)
        #expect(
            error?.description
                == "\(url.path): task #7 cannot be read: its due date 'soon' is not in the form YYYY-MM-DD"
        )
    }

    @Test func aDatabaseFromANewerTaskBoardIsNotOpened() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try open()
        try await database.queue.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        database.close()
        let error = #expect(throws: TaskDatabaseError.self) { try open() }
        #expect(error?.kind == .newerSchema)
        #expect(error?.description.contains("written by a newer TaskBoard") == true)
    }
}
