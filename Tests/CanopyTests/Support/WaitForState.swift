@testable import Canopy

/// The store's state once `condition` holds, read again after each turn of the queue: at most 10,000
/// turns, so a state that never comes ends the wait (the caller's expectation then fails) instead of
/// hanging the run.
func waitForState<State: Sendable, Action>(
    _ store: StateStore<State, Action>,
    until condition: (State) -> Bool
) async -> State {
    var state = await store.state
    for _ in 0..<10_000 where !condition(state) {
        await Task.yield()
        state = await store.state
    }
    return state
}
