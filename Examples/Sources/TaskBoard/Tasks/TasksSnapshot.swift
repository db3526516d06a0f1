/// The board as one JSON document: what `export --json` writes and `import` reads, what older TaskBoards
/// kept in `tasks.json`, and what the remote service stores.
struct TasksSnapshot: Codable, Equatable, Sendable {
    /// The format version; a file with another version is not read.
    static let currentVersion = 1

    var version = TasksSnapshot.currentVersion
    var nextID: Int
    var tasks: [TaskItem]

    init(nextID: Int, tasks: [TaskItem]) {
        self.nextID = nextID
        self.tasks = tasks
    }

    /// Why a decoded snapshot cannot be used.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case unsupportedVersion(Int)
        case duplicateID(Int)
        case invalidID(Int)
        case invalidNextID(Int)
        case titleTooLong(id: Int, length: Int)

        var description: String {
            switch self {
            case .unsupportedVersion(let version): "format version \(version) is not supported"
            case .duplicateID(let id): "task #\(id) appears twice"
            case .invalidID(let id):
                "task id \(id) is not a number from \(TaskItem.ids.lowerBound) to \(TaskItem.ids.upperBound)"
            case .titleTooLong(let id, let length):
                "the title of task #\(id) has \(length) characters; a title has at most \(TaskRules.longestTitle)"
            case .invalidNextID(let next):
                "nextID \(next) is not a number from \(TaskItem.ids.lowerBound) to \(TaskItem.ids.upperBound + 1)"
            }
        }
    }

    /// Checks what the JSON decoder cannot: the version, and that ids are unique and in
    /// ``TaskItem/ids``.
    func validated() throws(Problem) -> TasksSnapshot {
        guard version == TasksSnapshot.currentVersion else { throw .unsupportedVersion(version) }
        guard (TaskItem.ids.lowerBound...TaskItem.ids.upperBound + 1).contains(nextID) else {
            throw .invalidNextID(nextID)
        }
        var seen = Set<Int>()
        for task in tasks {
            guard TaskItem.ids.contains(task.id) else { throw .invalidID(task.id) }
            if let length = TaskRules.excessLength(of: task.title) { throw .titleTooLong(id: task.id, length: length) }
            guard seen.insert(task.id).inserted else { throw .duplicateID(task.id) }
        }
        var copy = self
        copy.nextID = max(nextID, (tasks.map(\.id).max() ?? 0) + 1)
        return copy
    }
}
