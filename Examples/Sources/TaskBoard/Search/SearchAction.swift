/// What the Search feature does.
enum SearchAction: Codable, Equatable, Sendable {
    /// The user typed a new query; it replaces the one before, whose search is cancelled.
    case setQuery(String)
    /// The debounce delay of request `serial` ended and its search started.
    case started(serial: Int)
    /// The results of a request.
    case finished(SearchResults)
    /// Forgets the query and its results.
    case clear
}
