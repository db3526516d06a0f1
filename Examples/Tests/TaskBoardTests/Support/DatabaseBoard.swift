import Canopy
import Foundation

@testable import TaskBoard

/// A board on a real database file, on a `ManualScheduler`, next to a second connection on the same
/// file that stands in for another TaskBoard process.
struct DatabaseBoard {
    let scheduler = ManualScheduler()
    let board: Board
    /// The board's own connection.
    let mine: TaskDatabase
    /// Another process's connection.
    let theirs: TaskDatabase

    /// Opens `tasks.sqlite` in `folder`, stores `tasks` through the other connection, and builds the board
    /// from what its own connection reads.
    init(in folder: URL, tasks: [TaskItem]) async throws {
        let url = folder.appendingPathComponent("tasks.sqlite")
        theirs = try TaskDatabase(url: url)
        try await theirs.apply(upserts: tasks, deletions: [])
        let mine = try TaskDatabase(url: url)
        self.mine = mine
        let saved = try mine.snapshot()
        board = withDependencies { [scheduler] in
            $0.scheduler = scheduler
        } operation: {
            var environment = Environment(writer: TaskWriter(database: mine))
            environment.database = mine
            return Board(today: TestBoard.day, saved: saved, environment: environment)
        }
    }
}
