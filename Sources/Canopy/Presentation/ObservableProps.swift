public import Dispatch
public import Observation

/// An `@Observable` model that holds the latest props of a store subscription, for SwiftUI and any
/// other Observation client.
///
/// It runs the subscriber pipeline (dedup → debounce → props on a presentation queue) and sets
/// ``props`` on the main actor, so reading ``props`` inside `withObservationTracking`, or in a SwiftUI
/// view's `body`, tracks it. The model keeps the store and the subscription; releasing the model ends
/// the subscription and releases the store at once.
///
/// ```swift
/// struct CounterView: View {
///     @State private var model = ObservableProps(store: store, props: { state, _ in state.count })
///
///     var body: some View {
///         Text("\(model.props ?? 0)")
///     }
/// }
/// ```
///
/// On Linux, deliveries need the main queue to be serviced: run from an `async` `main`, or call
/// `dispatchMain()`.
@MainActor
@Observable
public final class ObservableProps<Props> {
    /// The latest props; `nil` until the first delivery.
    public private(set) var props: Props?

    /// Keeps the store and the subscription.
    @ObservationIgnored private let lease: StoreLease

    /// Creates the model and subscribes it to `store` as `configuration` says.
    ///
    /// The first props arrive after the first debounce window, computed from the store's current state.
    ///
    /// ```swift
    /// let model = ObservableProps(store: store, configuration: .mainActor(debounce: .throttle(for: 0.1))) {
    ///     state, _ in state.progress
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The store to observe; the model keeps it alive.
    ///   - configuration: Dedup, debounce and presentation queue; its delivery must be `.mainActor`.
    ///   - props: Computes the props for a state, off the main thread. Its store argument does not keep
    ///     the store alive.
    public init<State: Sendable, Action: Sendable>(
        store: some Store<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props
    ) {
        configuration.requireMainActorDelivery(call: "ObservableProps(store:configuration:props:)")
        let store = store.eraseToAnyStore()
        lease = StoreLease(store: store)
        let subscription = SubscriptionPipeline.start(
            handle: store.handle,
            configuration: configuration,
            props: props,
            observer: .mainActor { [weak self] props in self?.props = props }
        )
        lease.replaceSubscription(with: subscription)
    }

    /// Creates the model and subscribes it to `store`.
    ///
    /// The same as ``init(store:configuration:props:)`` with a
    /// ``SubscriptionConfiguration/mainActor(removeStateDuplicates:debounce:presentationQueue:)``
    /// configuration.
    ///
    /// The first props arrive after the first debounce window, computed from the store's current state.
    ///
    /// - Parameters:
    ///   - store: The store to observe; the model keeps it alive.
    ///   - props: Computes the props for a state, off the main thread. Its store argument does not keep
    ///     the store alive.
    ///   - presentationQueue: The serial queue that runs `props`; `.main` is allowed.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one; `nil`
    ///     accepts every state.
    ///   - debounce: When accepted states go on to `props`.
    public convenience init<State: Sendable, Action: Sendable>(
        store: some Store<State, Action>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        presentationQueue: DispatchQueue = .sharedPresentationQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy = .default
    ) {
        self.init(
            store: store,
            configuration: .mainActor(
                removeStateDuplicates: removeStateDuplicates,
                debounce: debounce,
                presentationQueue: presentationQueue
            ),
            props: props
        )
    }

    /// Stops updating ``props``. Releasing the model does the same.
    public func cancel() {
        lease.cancelSubscription()
    }
}
