/// The root state: what every feature may read. Today's date (for due dates and overdue tasks), and a
/// count of the actions the tree has reduced.
struct AppState: Equatable, Sendable {
    var today: Day
    var actionCount = 0

    mutating func reduce(_ action: AppAction) {
        actionCount += 1
        if case .setToday(let day) = action {
            today = day
        }
    }
}
