/// What became of one dispatched action, as reported to `dispatch(_:completion:)`.
///
/// Exactly one outcome is reported per dispatch: the action (or the action a middleware forwarded in
/// its place) was reduced, a middleware blocked it, or a middleware threw.
///
/// ```swift
/// store.dispatch(.addTask(title: "")) { outcome in
///     if case .blocked = outcome { print("not added") }
/// }
/// ```
public enum DispatchOutcome<State> {
    /// The reducers ran; the value is the receiving store's state right after them.
    case reduced(State)

    /// A middleware did not forward the action, so no reducer ran.
    case blocked

    /// A middleware threw; no reducer ran. The error resolvers had their turn before this was reported:
    /// the error is the last one a resolver forwarded, or the one the middleware threw when none
    /// forwarded another.
    case failed(any Error)
}

extension DispatchOutcome: Sendable where State: Sendable {}

extension DispatchOutcome {
    /// The state after the reducers, or `nil` when the action was blocked or failed.
    public var state: State? {
        guard case .reduced(let state) = self else { return nil }
        return state
    }
}
