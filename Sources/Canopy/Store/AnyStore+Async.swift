extension AnyStore {
    /// Calls `handler` with the current state and then every new state until the returned subscription
    /// is cancelled or released; see ``StateStore/subscribe(removeStateDuplicates:_:)``.
    ///
    /// - Parameters:
    ///   - removeStateDuplicates: Skips a state the equating calls a duplicate of the last one passed on.
    ///   - handler: Receives the states, on the store's queue.
    /// - Returns: The subscription; keep it as long as you want states.
    public func subscribe(
        removeStateDuplicates: Equating<State>? = nil,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> Subscription {
        node.subscription(removeDuplicates: removeStateDuplicates, handler)
    }

    /// Sends `action` and returns the state right after it was reduced, or `nil` when this is a weak
    /// handle whose store is gone.
    ///
    /// - Parameter action: The action to reduce.
    /// - Returns: The store's state after the action.
    @discardableResult
    public func send(_ action: Action) async -> State? {
        await node.send(action)
    }

    /// The current state once everything dispatched before has been reduced, or `nil` when this is a weak
    /// handle whose store is gone.
    public var state: State? {
        get async { await node.currentState }
    }

    /// The current state, then every new state; finishes when the store is released. See
    /// ``StateStore/states(removeDuplicates:)``.
    ///
    /// - Parameter removeDuplicates: Skips a state the equating calls a duplicate of the last one.
    /// - Returns: An unbounded stream of states; already finished for a weak handle whose store is gone.
    public func states(removeDuplicates: Equating<State>? = nil) -> AsyncStream<State> {
        node.states(removeDuplicates: removeDuplicates)
    }
}
