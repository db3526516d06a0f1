extension AnyStore {
    /// Sends `action` and returns the state right after it was reduced, or `nil` when this is a weak
    /// handle whose store is gone.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: The store's state after the action.
    @discardableResult
    public func send(_ action: Action) async -> State? {
        await handle.send(action)
    }

    /// The current state once everything dispatched before has been reduced, or `nil` when this is a weak
    /// handle whose store is gone.
    public var state: State? {
        get async { await handle.currentState }
    }
}
