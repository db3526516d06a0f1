public import Dispatch

extension Store {
    /// Delivers props computed from the store's states to `observe` as `configuration` says, until the
    /// returned subscription is cancelled or released.
    ///
    /// This is the one entry point of the subscriber pipeline; every other subscribe method builds a
    /// ``SubscriptionConfiguration`` and comes here, or, with nothing to debounce, compute or hop
    /// (``subscribe(removeStateDuplicates:_:)``), goes where this one sends a `.storeQueue`
    /// configuration. For each state, in order:
    /// 1. on the store's queue, a state that the configuration's `removeStateDuplicates` calls a
    ///    duplicate of the last accepted one is dropped;
    /// 2. its `debounce` decides when an accepted state goes on; a newer one replaces a pending one;
    /// 3. `props` runs on its `presentationQueue` (on the store's queue when that is `nil`);
    /// 4. `observe` runs where its `delivery` says: on the main queue (isolated to the main actor), on a
    ///    given queue, or on the store's queue.
    ///
    /// Deliveries never arrive out of order: a props computation that finishes after a newer one (on
    /// a concurrent presentation queue) is dropped. The subscription does not keep the store alive;
    /// keep the store for as long as you keep the subscription.
    ///
    /// ```swift
    /// let subscription = store.subscribe(
    ///     .queue(output, removeStateDuplicates: .keyPath(\.revision), debounce: .throttle(for: 0.1)),
    ///     props: { state, _ in "\(state.done) of \(state.tasks.count) done" },
    ///     observe: { line in print(line) }
    /// )
    /// ```
    ///
    /// On Linux, delivery on `.main` needs the main queue to be serviced: run from an `async` `main`,
    /// or call `dispatchMain()`.
    ///
    /// - Parameters:
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - props: Computes the props for a state. Its store argument is a handle that does not keep
    ///     the store alive.
    ///   - observe: Receives the props.
    /// - Returns: The subscription; cancelling or releasing it stops deliveries at once.
    public func subscribe<Props>(
        _ configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observe: @escaping @Sendable (Props) -> Void
    ) -> Subscription {
        SubscriptionPipeline.start(
            handle: eraseToAnyStore().handle,
            configuration: configuration,
            props: props,
            observer: .anywhere(observe)
        )
    }

    /// Delivers props computed from the store's states to `observe`, with dedup and debounce, until the
    /// returned subscription is cancelled or released.
    ///
    /// Builds a ``SubscriptionConfiguration/queue(_:removeStateDuplicates:debounce:presentationQueue:)``
    /// configuration for ``subscribe(_:props:observe:)``: the subscriber pipeline without a UI object, for
    /// command-line tools, servers and tests. For each state, in order:
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
        debounce: DebouncePolicy = .default,
        deliveryQueue: DispatchQueue = .main,
        observe: @escaping @Sendable (Props) -> Void
    ) -> Subscription {
        subscribe(
            .queue(
                deliveryQueue,
                removeStateDuplicates: removeStateDuplicates,
                debounce: debounce,
                presentationQueue: presentationQueue
            ),
            props: props,
            observe: observe
        )
    }
}
