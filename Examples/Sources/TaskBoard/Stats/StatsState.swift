/// The Stats feature's own state, owned by the `stats` child store: how the numbers are shown. The
/// numbers themselves are ``StatsProps``, computed from the tasks on the presentation queue.
struct StatsState: Equatable, Sendable {
    static let topTagsRange = 1...50

    var topTags = 5

    mutating func reduce(_ action: AppAction) {
        guard case .stats(.showTopTags(let count)) = action else { return }
        topTags = min(max(count, StatsState.topTagsRange.lowerBound), StatsState.topTagsRange.upperBound)
    }
}
