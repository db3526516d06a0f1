extension StateStore {
    /// Calls `handler` with the current state and then every new state, on the store's queue, until the
    /// returned subscription is cancelled or released.
    ///
    /// ```swift
    /// let subscription = store.subscribe(removeStateDuplicates: .keyPath(\.count)) { state in
    ///     print(state.count)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - removeStateDuplicates: Skips a state the equating calls a duplicate of the last one passed on.
    ///   - handler: Receives the states.
    /// - Returns: The subscription; keep it as long as you want states.
    public func subscribe(
        removeStateDuplicates: Equating<State>? = nil,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> Subscription {
        node.subscription(removeDuplicates: removeStateDuplicates, handler)
    }

    /// Sends `action` and returns the state right after it was reduced.
    ///
    /// Actions sent earlier from the same thread are reduced first. Safe to await from any context,
    /// including code started by the store's own observers.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: This store's state after the action.
    @discardableResult
    public func send(_ action: Action) async -> State {
        guard let state = await node.send(action) else {
            preconditionFailure("Internal inconsistency: a StateStore's tree was released while it was held")
        }
        return state
    }

    /// The current state, read after everything dispatched before this call has been reduced.
    public var state: State {
        get async {
            guard let state = await node.currentState else {
                preconditionFailure("Internal inconsistency: a StateStore's tree was released while it was held")
            }
            return state
        }
    }

    /// The current state, then every new state, as an asynchronous sequence.
    ///
    /// The sequence does not keep the store alive: it finishes when the store is released. Stop
    /// iterating (or cancel the task) to unsubscribe.
    ///
    /// ```swift
    /// for await state in store.states(removeDuplicates: .keyPath(\.count)) {
    ///     print(state.count)
    /// }
    /// ```
    ///
    /// - Parameter removeDuplicates: Skips a state the equating calls a duplicate of the last one.
    /// - Returns: An unbounded stream of states.
    public func states(removeDuplicates: Equating<State>? = nil) -> AsyncStream<State> {
        node.states(removeDuplicates: removeDuplicates)
    }
}
