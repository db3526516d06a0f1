public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension UIStateObserver {
    /// Delivers props computed from `store`'s states to `observe` on the main actor for as long as this
    /// object lives.
    ///
    /// For each state, in order: a state that `removeStateDuplicates` calls a duplicate of the last
    /// accepted one is dropped on the store's queue; the rest are debounced for `debounceFor` seconds
    /// (a newer state replaces a pending one); `props` runs on `presentationQueue` for the last one;
    /// `observe` runs on the main actor with the result. The first state is the store's current one.
    ///
    /// ```swift
    /// subscribe(
    ///     store: store,
    ///     props: { state, store in TitleProps(title: state.title, rename: { store.dispatch(.rename($0)) }) },
    ///     removeStateDuplicates: .keyPath(\.title)
    /// ) { [weak self] props in
    ///     self?.render(props)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe. The subscription does not keep it alive.
    ///   - props: Computes the props for a state, off the main thread. Its store argument does not keep
    ///     the store alive either.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one; `nil`
    ///     accepts every state.
    ///   - debounceFor: Seconds of quiet before the last state goes on; zero delivers every accepted
    ///     state. Must be finite and not negative.
    ///   - observe: Receives the props on the main actor.
    public func subscribe<State: Sendable, Action: Sendable, Props>(
        store: some Store<State, Action>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounceFor: TimeInterval = .uiDebounce,
        observe: @escaping @MainActor @Sendable (Props) -> Void
    ) {
        let policy = DebouncePolicy.checked(
            interval: debounceFor,
            call: "UIStateObserver.subscribe(store:props:presentationQueue:removeStateDuplicates:debounceFor:observe:)"
        )
        subscribe(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: policy,
                presentationQueue: presentationQueue
            ),
            props: props,
            observe: observe
        )
    }

    /// Delivers props computed from `store`'s states to `observe` on the main actor for as long as this
    /// object lives, with a ``DebouncePolicy`` such as a maximum wait or throttling.
    ///
    /// Like ``subscribe(store:props:presentationQueue:removeStateDuplicates:debounceFor:observe:)``, with
    /// `debounce` in place of a plain debounce interval.
    ///
    /// ```swift
    /// subscribe(store: store, props: ProgressProps.init, debounce: .throttle(for: 0.1)) { [weak self] props in
    ///     self?.render(props)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe. The subscription does not keep it alive.
    ///   - props: Computes the props for a state, off the main thread.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounce: When accepted states go on to `props`.
    ///   - observe: Receives the props on the main actor.
    public func subscribe<State: Sendable, Action: Sendable, Props>(
        store: some Store<State, Action>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy,
        observe: @escaping @MainActor @Sendable (Props) -> Void
    ) {
        subscribe(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: debounce,
                presentationQueue: presentationQueue
            ),
            props: props,
            observe: observe
        )
    }

    /// Delivers props computed from `store`'s states to `observe` on the main actor for as long as this
    /// object lives, as `configuration` says.
    ///
    /// Every other `subscribe` method of this protocol builds a configuration and comes here. The
    /// configuration must deliver on the main actor (``SubscriptionConfiguration/Delivery/mainActor``).
    ///
    /// ```swift
    /// subscribe(
    ///     store: store,
    ///     configuration: .mainActor(removeStateDuplicates: .keyPath(\.progress), debounce: .throttle(for: 0.1)),
    ///     props: ProgressProps.init
    /// ) { [weak self] props in
    ///     self?.render(props)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe. The subscription does not keep it alive.
    ///   - configuration: Dedup, debounce and presentation queue; its delivery must be `.mainActor`.
    ///   - props: Computes the props for a state. Its store argument does not keep the store alive.
    ///   - observe: Receives the props on the main actor.
    public func subscribe<State: Sendable, Action: Sendable, Props>(
        store: some Store<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observe: @escaping @MainActor @Sendable (Props) -> Void
    ) {
        configuration.requireMainActorDelivery(call: "UIStateObserver.subscribe(store:configuration:props:observe:)")
        SubscriptionPipeline.start(
            handle: store.eraseToAnyStore().handle,
            configuration: configuration,
            props: props,
            observer: .mainActor(observe),
            owner: self
        )
    }

    /// Delivers props computed from `store`'s states and its `dispatch` to `observe` on the main actor
    /// for as long as this object lives.
    ///
    /// Like ``subscribe(store:props:presentationQueue:removeStateDuplicates:debounceFor:observe:)``, with
    /// a props closure that gets the store's dispatch function instead of the store.
    ///
    /// ```swift
    /// subscribe(store, props: { state, dispatch in
    ///     ButtonProps(title: "\(state.count)", tap: { dispatch(.increment) })
    /// }) { [weak self] props in
    ///     self?.render(props)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe. The subscription does not keep it alive.
    ///   - props: Computes the props for a state, off the main thread. Its dispatch does nothing once
    ///     the store is gone.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounceFor: Seconds of quiet before the last state goes on. Must be finite and not negative.
    ///   - observe: Receives the props on the main actor.
    public func subscribe<State: Sendable, Action: Sendable, Props>(
        _ store: some Store<State, Action>,
        props: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounceFor: TimeInterval = .uiDebounce,
        observe: @escaping @MainActor @Sendable (Props) -> Void
    ) {
        let policy = DebouncePolicy.checked(
            interval: debounceFor,
            call: "UIStateObserver.subscribe(_:props:presentationQueue:removeStateDuplicates:debounceFor:observe:)"
        )
        subscribe(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: policy,
                presentationQueue: presentationQueue
            ),
            props: { state, store in props(state, { store.dispatch($0) }) },
            observe: observe
        )
    }

    /// Delivers `store`'s states and its `dispatch` to `observe` on the main actor for as long as this
    /// object lives.
    ///
    /// The states go through dedup and debounce, then straight to the main actor: there are no props
    /// to compute, so there is no presentation queue.
    ///
    /// ```swift
    /// subscribe(store, removeStateDuplicates: .keyPath(\.count)) { [weak self] state, dispatch in
    ///     self?.label.text = "\(state.count)"
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe. The subscription does not keep it alive.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounceFor: Seconds of quiet before the last state goes on. Must be finite and not negative.
    ///   - observe: Receives each delivered state, and a dispatch that does nothing once the store is
    ///     gone, on the main actor.
    public func subscribe<State: Sendable, Action: Sendable>(
        _ store: some Store<State, Action>,
        removeStateDuplicates: Equating<State>? = nil,
        debounceFor: TimeInterval = .uiDebounce,
        observe: @escaping @MainActor @Sendable (State, @escaping Dispatch<Action>) -> Void
    ) {
        let policy = DebouncePolicy.checked(
            interval: debounceFor,
            call: "UIStateObserver.subscribe(_:removeStateDuplicates:debounceFor:observe:)"
        )
        subscribe(
            store: store,
            configuration: SubscriptionConfiguration(
                removeStateDuplicates: removeStateDuplicates,
                debounce: policy,
                presentationQueue: nil,
                delivery: .mainActor
            ),
            props: { state, store in StateAndDispatch(state: state, dispatch: { store.dispatch($0) }) },
            observe: { delivered in observe(delivered.state, delivered.dispatch) }
        )
    }
}

/// A state paired with the dispatch of the store it came from.
private struct StateAndDispatch<State: Sendable, Action: Sendable>: Sendable {
    let state: State
    let dispatch: Dispatch<Action>
}
