import CanopyTestSupport
import Testing

@testable import Canopy

/// The store's state once `condition` holds, read again after each turn: within the wait bound, so a
/// state that never comes ends the wait (the caller's expectation then fails) instead of hanging the run.
func waitForState<State: Sendable, Action>(
    _ store: StateStore<State, Action>,
    sourceLocation: SourceLocation = #_sourceLocation,
    until condition: (State) -> Bool
) async -> State {
    var state = await store.state
    await waitUntil("the store's state", sourceLocation: sourceLocation) {
        state = await store.state
        return condition(state)
    }
    return state
}

/// Returns once `clock` has at least `count` pieces of work pending (a task reached its sleep), or after
/// the wait bound.
func waitUntilScheduled(
    _ clock: ManualScheduler,
    count: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    await waitUntil("\(count) pieces of work on the clock", sourceLocation: sourceLocation) {
        clock.pendingCount >= count
    }
}
