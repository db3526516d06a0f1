import Canopy

/// The Stats feature's own state, owned by the `stats` child store: how the numbers are shown. The
/// numbers themselves are ``StatsProps``, computed from the tasks on the presentation queue.
struct StatsState: Equatable, Sendable {
    static let topTagsRange = 1...50

    var topTags = 5

    /// The Stats reducer, scoped to the Stats actions.
    static let reducer: Reducer<StatsState, AppAction> = Reducers.scope(
        state: \.self,
        action: \.stats,
        reducer: { state, action in state.reduce(action) }
    )

    private mutating func reduce(_ action: StatsAction) {
        guard case .showTopTags(let count) = action else { return }
        topTags = min(max(count, StatsState.topTagsRange.lowerBound), StatsState.topTagsRange.upperBound)
    }
}
