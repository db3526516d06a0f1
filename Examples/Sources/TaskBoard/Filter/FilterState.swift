/// The filter feature: which tasks the board shows, owned by a second child store.
struct FilterState: Sendable {
    var onlyOpen = false

    mutating func reduce(_ action: AppAction) {
        if case .showOnlyOpen(let onlyOpen) = action {
            self.onlyOpen = onlyOpen
        }
    }
}
