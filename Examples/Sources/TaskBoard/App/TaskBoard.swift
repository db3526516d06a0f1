import Canopy

/// A small task board: one root store and two feature stores made with `with(_:reducer:)`.
///
/// Actions sent to a feature run the feature's reducer, then the root's; each feature sees the root's
/// state paired with its own. The full TaskBoard CLI grows from this shape.
@main
struct TaskBoard {
    static func main() async {
        let root = StateStore<AppState, AppAction>(AppState()) { state, action in state.reduce(action) }
        let tasks = root.with(TasksState()) { state, action in state.reduce(action) }
        let filter = root.with(FilterState()) { state, action in state.reduce(action) }

        let printer = tasks.subscribe(removeStateDuplicates: .keyPath(\.1.tasks)) { app, tasks in
            print("[\(app.actionCount) actions] \(tasks.tasks.count) tasks, \(tasks.tasks.filter(\.isDone).count) done")
        }

        tasks.dispatch(.add("Write the README"))
        tasks.dispatch(.add("Run the tests"))
        tasks.dispatch(.add("Ship it"))
        await tasks.send(.complete(2))
        await filter.send(.showOnlyOpen(true))

        let (_, board) = await tasks.state
        let (_, settings) = await filter.state
        print("")
        for task in board.tasks where !(settings.onlyOpen && task.isDone) {
            print("  #\(task.id) \(task.title)")
        }
        printer.cancel()
    }
}
