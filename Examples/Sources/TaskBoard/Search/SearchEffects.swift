import Canopy

/// The Search feature's effect: a debounced search that a newer query cancels.
enum SearchEffects {
    /// `effect(onChange:on:create:)` on the request: each new query starts a run that waits
    /// `searchDebounce` seconds, then searches. A newer query cancels the run before it, whether it is
    /// still waiting (so only the last query of a burst searches) or already searching (its task is
    /// cancelled, and any result it would still send is dropped by the store).
    static func attach(to store: SearchStore, environment: Environment) {
        let engine = SearchEngine(sleeper: environment.sleeper, latency: environment.searchLatency)
        let sleeper = environment.sleeper
        let debounce = environment.searchDebounce
        store.effect(onChange: \.1.request, on: environment.effectQueue) { state, dispatch in
            let request = state.1.request
            guard !request.text.isEmpty else { return Effect {} }
            let tasks = state.0.1.items
            return Effect {
                do {
                    try await sleeper.sleep(for: debounce)
                    dispatch(.search(.started(serial: request.serial)))
                    let hits = try await engine.search(request.text, in: tasks)
                    dispatch(.search(.finished(SearchResults(serial: request.serial, query: request.text, hits: hits))))
                } catch {
                    // Cancelled by a newer query: nothing to report.
                }
            }
        }
    }
}
