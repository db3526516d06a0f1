// The subscription bridges every store shares: each reaches its tree node through `eraseToAnyStore()`.
extension Store where State: Sendable, Action: Sendable {
    /// Calls `handler` with the current state and then every new state, on the store's queue, until the
    /// returned subscription is cancelled or released.
    ///
    /// The same as ``subscribe(_:props:observe:)`` with
    /// ``SubscriptionConfiguration/storeQueue(removeStateDuplicates:)`` and the state as props.
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
        // What `SubscriptionPipeline.start` does for a `.storeQueue` configuration, without building
        // one: nothing to debounce, compute or hop, so nothing but the node's observer and the token.
        eraseToAnyStore().handle.subscription(removeDuplicates: removeStateDuplicates, handler)
    }

    /// The current state, then every new state, as an asynchronous sequence.
    ///
    /// The sequence does not keep the store alive: it finishes when the store is released (at once for a
    /// weak handle whose store is gone). Stop iterating (or cancel the task) to unsubscribe.
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
        eraseToAnyStore().handle.states(removeDuplicates: removeDuplicates)
    }
}
