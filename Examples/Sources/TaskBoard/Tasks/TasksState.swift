import Canopy
import Foundation

/// The Tasks feature's state: the tasks themselves, owned by the `tasks` child store.
///
/// Every other feature hangs below this store, so each of them sees the tasks in its state. It also
/// holds what the Tasks effects need: whether the board on disk is up to date (``SaveState``) and
/// the reminders that are waiting.
struct TasksState: Equatable, Sendable {
    var items: [TaskItem] = []
    var nextID = 1
    /// Goes up by one whenever `items` changes, and only then.
    private(set) var revision = 0
    /// What the last task command did, for the command that sent it.
    var lastEvent: TasksEvent?
    var saving: SaveState
    var reminders: [Reminder] = []
    /// The reminders that fired, oldest first.
    var firedReminders: [TaskItem] = []

    init(items: [TaskItem] = [], nextID: Int = 1, saving: SaveState.Settings = SaveState.Settings()) {
        self.items = items
        self.nextID = max(nextID, (items.map(\.id).max() ?? 0) + 1)
        self.saving = SaveState(settings: saving)
    }

    /// The task with `id`, if there is one.
    func task(_ id: Int) -> TaskItem? {
        items.first { $0.id == id }
    }

    /// The saved form of the board.
    var snapshot: TasksSnapshot {
        TasksSnapshot(nextID: nextID, tasks: items)
    }

    /// Whether every change reached the disk.
    var isSaved: Bool {
        saving.savedRevision == revision && !saving.run.isInProgress
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

    /// Replaces the board with the one a pull brought back.
    private mutating func take(_ stored: RemoteService.Stored) {
        let before = snapshot
        replace(with: stored.board)
        if snapshot != before { markChanged() }
    }

    private mutating func reduce(_ action: TasksAction) {
        switch action {
        case .add(let title, let tags, let due, let reserved):
            // An empty title never gets here: `TaskRules.validate` blocks it.
            let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
            let id = reserved ?? nextID
            let task = TaskItem(id: id, title: title, tags: Tag.normalize(tags), due: due)
            nextID = max(nextID, id + 1)
            items.append(task)
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
            guard let index = items.firstIndex(where: { $0.id == id }) else {
                lastEvent = .notFound(id: id)
                return
            }
            lastEvent = .deleted(items.remove(at: index))
            reminders.removeAll { $0.taskID == id }
            markChanged()
        case .restore(let snapshot):
            replace(with: snapshot)
            saving.savedRevision = revision
        case .replace(let snapshot):
            let before = self.snapshot
            replace(with: snapshot)
            if self.snapshot != before { markChanged() }
        case .remind(let id, let seconds):
            guard let task = task(id) else {
                lastEvent = .notFound(id: id)
                return
            }
            reminders.removeAll { $0.taskID == id }
            reminders.append(Reminder(taskID: id, delay: max(seconds, 0)))
            lastEvent = .unchanged(task)
        case .reminderFired(let id):
            guard let index = reminders.firstIndex(where: { $0.taskID == id }) else { return }
            reminders.remove(at: index)
            if let task = task(id) { firedReminders.append(task) }
        case .saved(let revision):
            saving.saved(revision: revision)
        case .saveFailed(let reason, let permanent):
            saving.failed(reason: reason, permanent: permanent)
        case .flush:
            saving.flush(revision: revision)
        }
    }

    private mutating func update(_ id: Int, _ change: (inout TaskItem) -> Void) {
        guard let index = items.firstIndex(where: { $0.id == id }) else {
            lastEvent = .notFound(id: id)
            return
        }
        var task = items[index]
        change(&task)
        guard task != items[index] else {
            lastEvent = .unchanged(task)
            return
        }
        items[index] = task
        lastEvent = .updated(task)
        markChanged()
    }

    private mutating func replace(with snapshot: TasksSnapshot) {
        items = snapshot.tasks
        nextID = max(snapshot.nextID, (items.map(\.id).max() ?? 0) + 1)
        reminders.removeAll { reminder in !items.contains { $0.id == reminder.taskID && !$0.isDone } }
        lastEvent = .replaced(count: items.count)
    }

    private mutating func markChanged() {
        revision += 1
        saving.schedule()
    }
}
