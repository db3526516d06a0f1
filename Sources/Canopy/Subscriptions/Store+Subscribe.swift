public import Dispatch

extension Store {
    /// Delivers props computed from the store's states to `observe`, with dedup and debounce, until the
    /// returned subscription is cancelled or released.
    ///
    /// This is the subscriber pipeline without a UI object, for command-line tools, servers and tests.
    /// For each state, in order:
    /// 1. on the store's queue, a state that `removeStateDuplicates` calls a duplicate of the last
    ///    accepted one is dropped;
    /// 2. `debounce` decides when an accepted state goes on; a newer one replaces a pending one;
    /// 3. `props` runs on `presentationQueue` for that state;
    /// 4. `observe` runs on `deliveryQueue` with the props.
    ///
    /// Deliveries never arrive out of order: a props computation that finishes after a newer one (on
    /// a concurrent presentation queue) is dropped. The subscription does not keep the store alive;
    /// keep the store for as long as you keep the subscription.
    ///
    /// ```swift
    /// let subscription = store.subscribe(
    ///     props: { state, store in "\(state.done) of \(state.tasks.count) done" },
    ///     removeStateDuplicates: .keyPath(\.revision),
    ///     debounce: .debounce(for: 0.05, maxWait: 0.5),
    ///     deliveryQueue: output,
    ///     observe: { line in print(line) }
    /// )
    /// ```
    ///
    /// On Linux, delivery on `.main` needs the main queue to be serviced: run from an `async` `main`,
    /// or call `dispatchMain()`.
    ///
    /// - Parameters:
    ///   - props: Computes the props for a state. Its store argument is a handle that does not keep
    ///     the store alive.
    ///   - presentationQueue: The serial queue that runs `props`.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one; `nil`
    ///     accepts every state.
    ///   - debounce: When accepted states go on to `props`.
    ///   - deliveryQueue: The queue that runs `observe`.
    ///   - observe: Receives the props.
    /// - Returns: The subscription; cancelling or releasing it stops deliveries at once.
    public func subscribe<Props>(
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy = .debounce(for: .uiDebounce),
        deliveryQueue: DispatchQueue = .main,
        observe: @escaping @Sendable (Props) -> Void
    ) -> Subscription {
        SubscriptionPipeline(
            node: eraseToAnyStore().node,
            props: props,
            presentationQueue: presentationQueue,
            removeStateDuplicates: removeStateDuplicates,
            debounce: debounce,
            delivery: .queue(deliveryQueue, observe)
        )
        .makeSubscription()
    }
}
