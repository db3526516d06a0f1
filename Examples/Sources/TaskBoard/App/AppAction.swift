/// Every action of the board. The whole tree shares one action type; each feature's reducer picks the
/// cases that concern it, and actions travel up from the store they were sent to.
enum AppAction: Sendable {
    /// The calendar moved on; dispatched to the root before each command.
    case setToday(Day)
    case tasks(TasksAction)
    case search(SearchAction)
    case sync(SyncAction)
    case stats(StatsAction)
}

extension AppAction: CustomStringConvertible {
    /// `tasks.add(title: "Milk", tags: [], due: nil)`: the feature, then its action, as the log shows it.
    var description: String {
        switch self {
        case .setToday(let day): "setToday(\(day))"
        case .tasks(let action): "tasks.\(action)"
        case .search(let action): "search.\(action)"
        case .sync(let action): "sync.\(action)"
        case .stats(let action): "stats.\(action)"
        }
    }
}
