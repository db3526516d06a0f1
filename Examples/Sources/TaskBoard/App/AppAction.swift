/// Every action of the board. The whole tree shares one action type; each feature's reducer picks the
/// cases that concern it, and actions travel up from the store they were sent to.
enum AppAction: Codable, Sendable {
    /// The calendar moved on; dispatched to the root before each command.
    case setToday(Day)
    case tasks(TasksAction)
    case search(SearchAction)
    case sync(SyncAction)
    case stats(StatsAction)
}

extension AppAction {
    // The case extractions that scope each feature's reducer to its own actions (`Reducers.scope`).

    /// The Tasks action inside, if this is one.
    var tasks: TasksAction? {
        if case .tasks(let action) = self { action } else { nil }
    }

    /// The Search action inside, if this is one.
    var search: SearchAction? {
        if case .search(let action) = self { action } else { nil }
    }

    /// The Sync action inside, if this is one.
    var sync: SyncAction? {
        if case .sync(let action) = self { action } else { nil }
    }

    /// The Stats action inside, if this is one.
    var stats: StatsAction? {
        if case .stats(let action) = self { action } else { nil }
    }

    /// The board a pull brought back, if this is a pull that found one: the Tasks feature takes it as
    /// the action travels up from `sync`.
    var pulledBoard: RemoteService.Stored? {
        if case .sync(.pulled(let stored?)) = self { stored } else { nil }
    }
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
