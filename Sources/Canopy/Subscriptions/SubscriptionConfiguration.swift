public import Dispatch

/// Everything that shapes one subscription between a store's states and its consumer: which states
/// count (dedup), when they go on (debounce), where props are computed, and where they are delivered.
///
/// Every subscription in Canopy is described by one of these, whichever door it comes in through:
/// ``Store/subscribe(_:props:observe:)`` takes it directly; the Puredux-style
/// `UIStateObserver.subscribe` and `Presentable.setPresenter` overloads and ``ObservableProps`` build one
/// from their arguments; ``Store/subscribe(removeStateDuplicates:_:)`` is the subscription a
/// ``storeQueue(removeStateDuplicates:)`` configuration describes.
///
/// The stages run in order, for each state:
/// 1. on the store's queue, a state that ``removeStateDuplicates`` calls a duplicate of the last
///    accepted one is dropped;
/// 2. ``debounce`` decides when an accepted state goes on; a newer one replaces a pending one;
/// 3. the props are computed on ``presentationQueue`` (on the store's queue when it is `nil`);
/// 4. they are delivered as ``delivery`` says.
///
/// ```swift
/// let subscription = store.subscribe(
///     .queue(output, removeStateDuplicates: .keyPath(\.revision), debounce: .throttle(for: 0.1)),
///     props: { state, _ in "\(state.done) of \(state.tasks.count) done" },
///     observe: { line in print(line) }
/// )
/// ```
public struct SubscriptionConfiguration<State>: Sendable {
    /// Where a subscription's props are delivered.
    public enum Delivery: Sendable {
        /// On the main queue, isolated to the main actor.
        case mainActor
        /// On the given queue.
        case queue(DispatchQueue)
        /// On the store's own queue, in order, as soon as the props are ready.
        case storeQueue
    }

    /// Skips a state it calls a duplicate of the last accepted one; `nil` accepts every state.
    public var removeStateDuplicates: Equating<State>?
    /// When accepted states go on to the props.
    public var debounce: DebouncePolicy
    /// The serial queue that computes the props; `nil` computes them on the store's queue.
    public var presentationQueue: DispatchQueue?
    /// Where the props go.
    public var delivery: Delivery

    /// Creates a configuration; the defaults are those of a UI subscription.
    ///
    /// ```swift
    /// var configuration = SubscriptionConfiguration<Board>()
    /// configuration.debounce = .throttle(for: 0.1)
    /// ```
    ///
    /// - Parameters:
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one; `nil`
    ///     accepts every state.
    ///   - debounce: When accepted states go on to the props.
    ///   - presentationQueue: The serial queue that computes the props; `nil` computes them on the
    ///     store's queue.
    ///   - delivery: Where the props go.
    public init(
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy = .default,
        presentationQueue: DispatchQueue? = .sharedPresentationQueue,
        delivery: Delivery = .mainActor
    ) {
        self.removeStateDuplicates = removeStateDuplicates
        self.debounce = debounce
        self.presentationQueue = presentationQueue
        self.delivery = delivery
    }

    /// A UI subscription: props computed on a presentation queue and delivered on the main actor.
    ///
    /// What the `UIStateObserver` and `Presentable` methods build.
    ///
    /// ```swift
    /// store.subscribe(.mainActor(removeStateDuplicates: .keyPath(\.title)), props: TitleProps.init) { props in
    ///     MainActor.assumeIsolated { screen.render(props) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounce: When accepted states go on to the props; at least every 0.1 s by default.
    ///   - presentationQueue: The serial queue that computes the props; `.main` is allowed.
    /// - Returns: The configuration.
    public static func mainActor(
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy = .default,
        presentationQueue: DispatchQueue = .sharedPresentationQueue
    ) -> SubscriptionConfiguration {
        SubscriptionConfiguration(
            removeStateDuplicates: removeStateDuplicates,
            debounce: debounce,
            presentationQueue: presentationQueue,
            delivery: .mainActor
        )
    }

    /// A subscription that delivers its props on `deliveryQueue`: for command-line tools, servers and
    /// tests.
    ///
    /// ```swift
    /// store.subscribe(.queue(output), props: { state, _ in state.summary }) { line in print(line) }
    /// ```
    ///
    /// - Parameters:
    ///   - deliveryQueue: The queue that receives the props.
    ///   - removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    ///   - debounce: When accepted states go on to the props.
    ///   - presentationQueue: The serial queue that computes the props.
    /// - Returns: The configuration.
    public static func queue(
        _ deliveryQueue: DispatchQueue,
        removeStateDuplicates: Equating<State>? = nil,
        debounce: DebouncePolicy = .default,
        presentationQueue: DispatchQueue = .sharedPresentationQueue
    ) -> SubscriptionConfiguration {
        SubscriptionConfiguration(
            removeStateDuplicates: removeStateDuplicates,
            debounce: debounce,
            presentationQueue: presentationQueue,
            delivery: .queue(deliveryQueue)
        )
    }

    /// Every state that passes dedup, on the store's own queue, in order: no debounce, no queue hop.
    ///
    /// What ``Store/subscribe(removeStateDuplicates:_:)`` builds. The observer runs on the store's queue,
    /// so it must be quick.
    ///
    /// ```swift
    /// store.subscribe(.storeQueue(removeStateDuplicates: .keyPath(\.count)), props: { state, _ in state.count }) {
    ///     print($0)
    /// }
    /// ```
    ///
    /// - Parameter removeStateDuplicates: Skips a state it calls a duplicate of the last accepted one.
    /// - Returns: The configuration.
    public static func storeQueue(removeStateDuplicates: Equating<State>? = nil) -> SubscriptionConfiguration {
        SubscriptionConfiguration(
            removeStateDuplicates: removeStateDuplicates,
            debounce: .immediate,
            presentationQueue: nil,
            delivery: .storeQueue
        )
    }

    /// Stops the program, naming `call`, unless this configuration delivers on the main actor.
    func requireMainActorDelivery(call: String) {
        guard case .mainActor = delivery else {
            preconditionFailure("\(call) needs a configuration that delivers on the main actor")
        }
    }

    /// Whether every state goes straight from dedup to the observer on the store's queue, with nothing
    /// in between to schedule or order.
    var isDirect: Bool {
        guard debounce == .immediate, presentationQueue == nil, case .storeQueue = delivery else { return false }
        return true
    }
}
