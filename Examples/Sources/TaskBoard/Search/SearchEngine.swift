/// Runs searches for the Search effect. A search takes `latency` seconds on the tree's scheduler, like
/// a query to an index would, and stops as soon as its task is cancelled.
struct SearchEngine: Sendable {
    let sleeper: Sleeper
    let latency: Double

    func search(_ query: String, in tasks: [TaskItem]) async throws -> [SearchHit] {
        try await sleeper.sleep(for: latency)
        return SearchMatcher.hits(for: query, in: tasks)
    }
}
