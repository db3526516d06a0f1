/// What the Tasks feature does to the list of tasks.
enum TasksAction: Codable, Equatable, Sendable {
    /// Adds a task under `id`, the number the database reserved for it (``TaskDatabase/reserveID()``),
    /// or, when `id` is `nil` (a board in memory), under the board's own next number.
    case add(title: String, tags: [String] = [], due: Day? = nil, id: Int? = nil)
    case rename(id: Int, title: String)
    case complete(id: Int)
    case reopen(id: Int)
    case delete(id: Int)
    case tag(id: Int, tags: [String])
    case untag(id: Int, tags: [String])
    case setDue(id: Int, due: Day?)
    /// Replaces the board with what was saved, without counting as a change to save again.
    case restore(TasksSnapshot)
    /// Replaces the board with an imported one (`import <file>`): a change, saved like any other.
    case replace(TasksSnapshot)
    /// Takes what another process stored since the board was last read (`upserts` added or changed,
    /// `deletions` gone), without counting it as a change to save again.
    case merge(upserts: [TaskItem], deletions: [Int], nextID: Int)
    /// Sets a reminder about a task, `seconds` from now; replaces the task's earlier reminder.
    case remind(id: Int, seconds: Double)
    /// A reminder's delay is over.
    case reminderFired(id: Int)
}

/// What the last tasks action did, kept in the state so that the command that sent it can say so.
enum TasksEvent: Equatable, Sendable {
    case added(TaskItem)
    case updated(TaskItem)
    /// The action asked for what was already true, such as completing a done task.
    case unchanged(TaskItem)
    case deleted(TaskItem)
    case notFound(id: Int)
    /// The task was deleted by another process since this one read the board.
    case deletedElsewhere(id: Int)
    case replaced(count: Int)
}

extension TasksAction {
    /// The task the action names, if it names one (the tasks of a snapshot, and of a merge, are checked
    /// as a board, by ``TasksSnapshot/validated()``).
    var taskID: Int? {
        switch self {
        case .add(_, _, _, let id): id
        case .rename(let id, _), .complete(let id), .reopen(let id), .delete(let id), .tag(let id, _),
            .untag(let id, _), .setDue(let id, _), .remind(let id, _), .reminderFired(let id):
            id
        case .restore, .replace, .merge:
            nil
        }
    }
}
