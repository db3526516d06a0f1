import Foundation
import GRDB

/// A row of the `tasks` table, and how it maps to a ``TaskItem``.
///
/// Tags are stored as a JSON array of strings, the due day as `YYYY-MM-DD` text (or `NULL`), so that
/// `sqlite3 tasks.sqlite 'select * from tasks'` reads as the board does.
struct TaskRow: Codable, Equatable, FetchableRecord, PersistableRecord, Sendable {
    static let databaseTableName = "tasks"

    var id: Int
    var title: String
    var done: Bool
    var tags: String
    var due: String?

    init(_ task: TaskItem) {
        id = task.id
        title = task.title
        done = task.isDone
        tags = Self.encode(tags: task.tags)
        due = task.due?.description
    }

    /// Updates, in the row with this id, the columns in which this row differs from `old`, the row as
    /// it was read: a field another process changed meanwhile, and this one did not, is left as it is.
    /// Returns `false` when the row is gone.
    func updateChangedColumns(from old: TaskRow, in db: Database) throws -> Bool {
        var columns: [(String, (any DatabaseValueConvertible)?)] = []
        if title != old.title { columns.append(("title", title)) }
        if done != old.done { columns.append(("done", done)) }
        if tags != old.tags { columns.append(("tags", tags)) }
        if due != old.due { columns.append(("due", due)) }
        // Nothing to write still says whether the row is there.
        guard !columns.isEmpty else {
            return try Bool.fetchOne(db, sql: "SELECT 1 FROM tasks WHERE id = ?", arguments: [id]) ?? false
        }
        let assignments = columns.map { "\($0.0) = ?" }.joined(separator: ", ")
        try db.execute(
            sql: "UPDATE tasks SET \(assignments) WHERE id = ?",
            arguments: StatementArguments(columns.map(\.1) + [id])
        )
        return db.changesCount > 0
    }

    /// The task, or why the row does not make one (a hand-edited database).
    func task() throws(TaskRowProblem) -> TaskItem {
        guard TaskItem.ids.contains(id) else {
            throw TaskRowProblem(
                id: id,
                reason: "its id is not a number from \(TaskItem.ids.lowerBound) to \(TaskItem.ids.upperBound)"
            )
        }
        guard let stored = try? JSONDecoder().decode([String].self, from: Data(tags.utf8)) else {
            throw TaskRowProblem(id: id, reason: "its tags are not a JSON array of strings")
        }
        if let invalid = stored.first(where: { Tag.normalize($0) == nil }) {
            throw TaskRowProblem(id: id, reason: "'\(invalid)' is not a valid tag")
        }
        var day: Day?
        if let due {
            guard let parsed = Day(iso: due) else {
                throw TaskRowProblem(id: id, reason: "its due date '\(due)' is not in the form YYYY-MM-DD")
            }
            day = parsed
        }
        return TaskItem(id: id, title: title, isDone: done, tags: Tag.normalize(stored), due: day)
    }

    private static func encode(tags: [String]) -> String {
        guard let data = try? JSONEncoder().encode(tags) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A row of the `tasks` table that does not make a task.
struct TaskRowProblem: Error, Equatable, CustomStringConvertible {
    let id: Int
    let reason: String

    var description: String { "task #\(id) cannot be read: \(reason)" }
}
