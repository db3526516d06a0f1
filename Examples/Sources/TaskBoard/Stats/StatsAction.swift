/// What the Stats feature does.
enum StatsAction: Equatable, Sendable {
    /// How many tags the histogram shows.
    case showTopTags(Int)
}
