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
