public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Presentable {
    /// Gives this object a presenter that, once subscribed, delivers props computed from `store` to
    /// ``setProps(_:)``.
    ///
    /// Nothing is subscribed until `presenter?.subscribeToStore()`. Then, for each state: a state that
    /// `removeStateDuplicates` calls a duplicate of the last accepted one is dropped on the store's
    /// queue; the rest are debounced for `debounceFor` seconds; `props` runs on `presentationQueue` for
    /// the last one; ``setProps(_:)`` runs on the main actor with the result.
    ///
    /// The presenter keeps `store` alive; the object keeps the presenter. Setting another presenter, or
    /// releasing the object, ends the subscription.
    ///
    /// ```swift
    /// screen.setPresenter(store: store, props: { state, store in ScreenProps(state, store) })
    /// screen.presenter?.subscribeToStore()
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe.
    ///   - props: Computes the props for a state, off the main thread. Its store argument does not keep
    ///     the store alive.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one; `nil`
    ///     accepts every state.
    ///   - debounceFor: Seconds of quiet before the last state goes on; zero delivers every accepted
    ///     state. Must be finite and not negative.
    public func setPresenter<State: Sendable, Action: Sendable>(
        store: some Store<State, Action>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounceFor: TimeInterval = .uiDebounce
    ) {
        let policy = DebouncePolicy.checked(
            interval: debounceFor,
            call: "Presentable.setPresenter(store:props:presentationQueue:removeStateDuplicates:debounceFor:)"
        )
        setPresenter(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: policy,
                presentationQueue: presentationQueue
            ),
            props: props
        )
    }

    /// Gives this object a presenter whose props closure gets the store's dispatch function.
    ///
    /// Like ``setPresenter(store:props:presentationQueue:removeStateDuplicates:debounceFor:)`` otherwise.
    ///
    /// ```swift
    /// screen.setPresenter(store, props: { state, dispatch in
    ///     ButtonProps(title: "\(state.count)", tap: { dispatch(.increment) })
    /// })
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe.
    ///   - props: Computes the props for a state, off the main thread. Its dispatch does nothing once
    ///     the store is gone.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounceFor: Seconds of quiet before the last state goes on. Must be finite and not negative.
    public func setPresenter<State: Sendable, Action: Sendable>(
        _ store: some Store<State, Action>,
        props: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounceFor: TimeInterval = .uiDebounce
    ) {
        let policy = DebouncePolicy.checked(
            interval: debounceFor,
            call: "Presentable.setPresenter(_:props:presentationQueue:removeStateDuplicates:debounceFor:)"
        )
        setPresenter(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: policy,
                presentationQueue: presentationQueue
            ),
            props: { state, store in props(state, { store.dispatch($0) }) }
        )
    }

    /// Gives this object a presenter with a ``DebouncePolicy`` such as a maximum wait or throttling.
    ///
    /// Like ``setPresenter(store:props:presentationQueue:removeStateDuplicates:debounceFor:)``, with
    /// `debounce` in place of a plain debounce interval.
    ///
    /// ```swift
    /// screen.setPresenter(store: store, props: ScreenProps.init, debounce: .debounce(for: 0.05, maxWait: 0.2))
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe.
    ///   - props: Computes the props for a state, off the main thread.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounce: When accepted states go on to `props`.
    public func setPresenter<State: Sendable, Action: Sendable>(
        store: some Store<State, Action>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy
    ) {
        setPresenter(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: debounce,
                presentationQueue: presentationQueue
            ),
            props: props
        )
    }

    /// Gives this object a presenter that subscribes to `store` as `configuration` says.
    ///
    /// Every other `setPresenter` method builds a configuration and comes here. The configuration must
    /// deliver on the main actor (``SubscriptionConfiguration/Delivery/mainActor``).
    ///
    /// ```swift
    /// screen.setPresenter(store: store, configuration: .mainActor(debounce: .throttle(for: 0.1)), props: Props.init)
    /// screen.presenter?.subscribeToStore()
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe; the presenter keeps it alive.
    ///   - configuration: Dedup, debounce and presentation queue; its delivery must be `.mainActor`.
    ///   - props: Computes the props for a state. Its store argument does not keep the store alive.
    public func setPresenter<State: Sendable, Action: Sendable>(
        store: some Store<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props
    ) {
        configuration.requireMainActorDelivery(call: "Presentable.setPresenter(store:configuration:props:)")
        presenter = Presenter(
            owner: self,
            store: store.eraseToAnyStore(),
            props: props,
            configuration: configuration
        )
    }
}
