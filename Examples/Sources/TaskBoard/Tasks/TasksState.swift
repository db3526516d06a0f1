/// The tasks feature: the list of tasks, owned by a child store.
struct TasksState: Sendable {
    struct Task: Sendable, Equatable {
        var id: Int
        var title: String
        var isDone = false
    }

    var tasks: [Task] = []
    private var nextID = 1

    mutating func reduce(_ action: AppAction) {
        switch action {
        case .add(let title):
            tasks.append(Task(id: nextID, title: title))
            nextID += 1
        case .complete(let id):
            if let index = tasks.firstIndex(where: { $0.id == id }) {
                tasks[index].isDone = true
            }
        case .showOnlyOpen:
            break
        }
    }
}
