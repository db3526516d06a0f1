/// Requests one run per attempt of an ``Effect/State`` while it is in progress (`effect(_:on:create:)`).
///
/// The key is the in-progress value itself: it changes exactly when the attempt identity does (a run
/// or restart gives a new run id, a retry a new attempt number), and `run()` while running leaves it
/// equal, so nothing starts twice.
struct AttemptTrigger<State>: EffectTrigger {
    typealias Key = Effect.State
    typealias Requests = SingleRequest<Effect.State>

    let effectState: @Sendable (State) -> Effect.State

    func requests(for state: State) -> SingleRequest<Effect.State> {
        let effectState = effectState(state)
        guard let delay = effectState.delay else { return SingleRequest(nil) }
        return SingleRequest(EffectRequest(key: effectState, delay: delay))
    }
}
