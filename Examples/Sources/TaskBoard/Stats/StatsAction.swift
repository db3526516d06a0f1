/// What the Stats feature does.
enum StatsAction: Codable, Equatable, Sendable {
    /// How many tags the histogram shows.
    case showTopTags(Int)
}
