import Canopy

extension StateStore where State: Sendable {
    /// Sends `action` and returns what became of it: the state right after it was reduced, or
    /// `.blocked` / `.failed` when a middleware stopped it. The `async` form of
    /// `dispatch(_:completion:)`, for the commands that must tell the user why nothing happened.
    func outcome(of action: Action) async -> DispatchOutcome<State> {
        await withCheckedContinuation { continuation in
            dispatch(action) { continuation.resume(returning: $0) }
        }
    }
}
