/// The root state: what every feature may read. Here, a count of the actions the board handled.
struct AppState: Sendable {
    var actionCount = 0

    mutating func reduce(_ action: AppAction) {
        actionCount += 1
    }
}
