import Canopy

/// The Search feature's work: a debounced search that a newer query cancels, run by id from a
/// middleware on the `search` store.
///
/// Each new query starts a run under ``runID`` with `cancelInFlight: true`: it waits `searchDebounce`
/// seconds on the tree's clock, then searches. A newer query (or `clear`) cancels the run before it,
/// whether it is still waiting (so only the last query of a burst searches) or already searching (its
/// task is cancelled, and a result it would still send is dropped before any reducer sees it).
enum SearchMiddleware {
    /// The id the search runs under, one at a time.
    static let runID = "search"

    static func make(environment: Environment) -> Middleware<SearchStoreState, AppAction> {
        let engine = SearchEngine(sleeper: environment.sleeper, latency: environment.searchLatency)
        let debounce = environment.searchDebounce
        return Middleware("search") { action, context in
            guard case .search(let search) = action else { return context.next(action) }
            let before = context.state
            context.next(action)
            switch search {
            case .setQuery(let text):
                let request = before.1.request.next(text: text)
                guard !request.text.isEmpty else { return context.cancel(id: runID) }
                let tasks = Array(before.0.1.items)
                context.run(id: runID, cancelInFlight: true) { task in
                    try await task.sleep(for: debounce)
                    task.send(.search(.started(serial: request.serial)))
                    let hits = try await engine.search(request.text, in: tasks)
                    task.send(
                        .search(.finished(SearchResults(serial: request.serial, query: request.text, hits: hits)))
                    )
                }
            case .clear:
                context.cancel(id: runID)
            case .started, .finished:
                break
            }
        }
    }
}
