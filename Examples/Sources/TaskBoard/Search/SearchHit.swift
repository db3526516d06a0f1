/// A task that matches a search, with the parts of its title to highlight.
struct SearchHit: Codable, Equatable, Sendable {
    let taskID: Int
    let title: String
    /// Character offsets into `title` of the matched text, sorted and not overlapping.
    let highlights: [Range<Int>]
    /// The task's tags that a term matched.
    let matchedTags: [String]
}

/// The results of one search request.
struct SearchResults: Codable, Equatable, Sendable {
    let serial: Int
    let query: String
    let hits: [SearchHit]
}
