extension StateStore {
    /// Sends `action` and returns the state right after it was reduced.
    ///
    /// Actions sent earlier from the same thread are reduced first. Safe to await from any context,
    /// including code started by the store's own observers.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: This store's state after the action.
    @discardableResult
    public func send(_ action: Action) async -> State {
        guard let state = await handle.send(action) else {
            preconditionFailure("Internal inconsistency: a StateStore's tree was released while it was held")
        }
        return state
    }

    /// The current state, read after everything dispatched before this call has been reduced.
    public var state: State {
        get async {
            guard let state = await handle.currentState else {
                preconditionFailure("Internal inconsistency: a StateStore's tree was released while it was held")
            }
            return state
        }
    }
}
