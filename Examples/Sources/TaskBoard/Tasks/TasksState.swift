import Canopy
import CanopyPersistence
import Foundation

/// The Tasks feature's state: the tasks themselves, owned by the `tasks` child store.
///
/// Every other feature hangs below this store, so each of them sees the tasks in its state. The tasks
/// are an `EntityStore`: it records which tasks each reduce changed, and the writer registered on the
/// `tasks` store (`Board`) stores those in the database. The state also holds the reminders that are
/// waiting.
struct TasksState: Equatable, Sendable {
    var items = EntityStore<TaskItem>()
    /// The number the next task gets on a board in memory; a board with a database takes its numbers
    /// from it (``TasksAction/add(title:tags:due:id:)``).
    var nextID = 1
    /// Goes up by one whenever `items` changes, and only then.
    private(set) var revision = 0
    /// What the last task command did, for the command that sent it.
    var lastEvent: TasksEvent?
    var reminders: [Reminder] = []
    /// The reminders that fired, oldest first.
    var firedReminders: [TaskItem] = []
    /// The tasks another process deleted, as this one learned from a reload: a command naming one says
    /// so rather than "no task".
    var deletedElsewhere: Set<Int> = []
    /// The tasks another process added or changed since the last pull: a pull keeps them as they are.
    var changedElsewhere: Set<Int> = []
    /// The tasks another process deleted since the last pull: a pull does not bring them back.
    var deletedSincePull: Set<Int> = []

    init(items: [TaskItem] = [], nextID: Int = 1) {
        self.items = EntityStore(items)
        self.nextID = max(nextID, (items.map(\.id).max() ?? 0) + 1)
    }

    /// The task with `id`, if there is one.
    func task(_ id: Int) -> TaskItem? {
        items[id: id]
    }

    /// The board as a snapshot: what `export` writes and the remote stores.
    var snapshot: TasksSnapshot {
        TasksSnapshot(nextID: nextID, tasks: Array(items))
    }

    /// The effect states of the reminders, for `effect(collection:)`.
    var reminderRuns: [Effect.State] {
        reminders.map(\.run)
    }

    /// The tasks reducer: its own actions, and a pull from the Sync feature, which travels up through
    /// this store.
    static let reducer: Reducer<TasksState, AppAction> = Reducers.combine(
        Reducers.scope(state: \.self, action: \.tasks) { state, action in state.reduce(action) },
        Reducers.scope(state: \.self, action: \.pulledBoard) { state, stored in state.take(stored) }
    )

    /// Replaces the board with the one a pull brought back; the writer stores the difference. What
    /// another process did since the last pull stays: a task it deleted is not brought back, and one it
    /// added or changed is kept as it is.
    private mutating func take(_ stored: RemoteService.Stored) {
        var board = stored.board
        let keptHere = changedElsewhere.compactMap { items[id: $0] }
        board.tasks.removeAll { deletedSincePull.contains($0.id) || changedElsewhere.contains($0.id) }
        board.tasks = (board.tasks + keptHere).sorted { $0.id < $1.id }
        replace(with: board, recording: true)
        changedElsewhere = []
        deletedSincePull = []
        deletedElsewhere = deletedElsewhere.filter { items[id: $0] == nil }
    }

    private mutating func reduce(_ action: TasksAction) {
        switch action {
        case .add(let title, let tags, let due, let reserved):
            // An empty title never gets here: `TaskRules.validate` blocks it.
            let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            let id = reserved ?? nextID
            let task = TaskItem(id: id, title: title, tags: Tag.normalize(tags), due: due)
            nextID = max(nextID, id + 1)
            items.upsert(task)
            lastEvent = .added(task)
            markChanged()
        case .rename(let id, let title):
            let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            update(id) { $0.title = title }
        case .complete(let id):
            update(id) { $0.isDone = true }
            reminders.removeAll { $0.taskID == id }
        case .reopen(let id):
            update(id) { $0.isDone = false }
        case .tag(let id, let tags):
            update(id) { $0.tags = Tag.normalize($0.tags + tags) }
        case .untag(let id, let tags):
            let removed = Set(Tag.normalize(tags))
            update(id) { $0.tags.removeAll(where: removed.contains) }
        case .setDue(let id, let due):
            update(id) { $0.due = due }
        case .delete(let id):
            guard let task = items.remove(id: id) else {
                lastEvent = missing(id)
                return
            }
            lastEvent = .deleted(task)
            reminders.removeAll { $0.taskID == id }
            markChanged()
        case .restore(let snapshot):
            replace(with: snapshot, recording: false)
        case .replace(let snapshot):
            replace(with: snapshot, recording: true)
        case .merge(let upserts, let deletions, let next):
            merge(upserts: upserts, deletions: deletions, nextID: next)
        case .remind(let id, let seconds):
            guard let task = task(id) else {
                lastEvent = missing(id)
                return
            }
            reminders.removeAll { $0.taskID == id }
            reminders.append(Reminder(taskID: id, delay: max(seconds, 0)))
            lastEvent = .unchanged(task)
        case .reminderFired(let id):
            guard let index = reminders.firstIndex(where: { $0.taskID == id }) else { return }
            reminders.remove(at: index)
            if let task = task(id) { firedReminders.append(task) }
        }
    }

    private mutating func update(_ id: Int, _ change: (inout TaskItem) -> Void) {
        guard let current = items[id: id] else {
            lastEvent = missing(id)
            return
        }
        var task = current
        change(&task)
        guard task != current else {
            lastEvent = .unchanged(task)
            return
        }
        items[id: id] = task
        lastEvent = .updated(task)
        markChanged()
    }

    /// Replaces the board with `snapshot`. `recording` says whether the change is to be stored (a pull,
    /// an import) or comes from the storage itself (hydration, which records nothing).
    private mutating func replace(with snapshot: TasksSnapshot, recording: Bool) {
        let before = Array(items)
        if recording {
            if snapshot.tasks != before { items.replaceAll(with: snapshot.tasks) }
        } else {
            items.hydrate(snapshot.tasks)
        }
        nextID = max(snapshot.nextID, (items.map(\.id).max() ?? 0) + 1)
        reminders.removeAll { reminder in items[id: reminder.taskID].map { $0.isDone } ?? true }
        lastEvent = .replaced(count: items.count)
        if recording, snapshot.tasks != before { markChanged() }
    }

    /// What a command on a task that is not on the board met.
    func missing(_ id: Int) -> TasksEvent {
        deletedElsewhere.contains(id) ? .deletedElsewhere(id: id) : .notFound(id: id)
    }

    /// Takes another process's changes, read back from the database: nothing is recorded, so nothing is
    /// written back, and a task changed here and not yet stored keeps its value (the writer then decides).
    private mutating func merge(upserts: [TaskItem], deletions: [Int], nextID next: Int) {
        let before = items
        items.mergeExternal(upserts: upserts, deletions: deletions)
        let deleted = deletions.filter { items[id: $0] == nil }
        deletedElsewhere.formUnion(deleted)
        deletedElsewhere.subtract(upserts.map(\.id))
        deletedSincePull.formUnion(deleted)
        deletedSincePull.subtract(upserts.map(\.id))
        changedElsewhere.formUnion(upserts.map(\.id))
        changedElsewhere.subtract(deleted)
        nextID = max(nextID, next)
        reminders.removeAll { reminder in items[id: reminder.taskID].map { $0.isDone } ?? true }
        if items != before { markChanged() }
    }

    private mutating func markChanged() {
        revision += 1
    }
}
