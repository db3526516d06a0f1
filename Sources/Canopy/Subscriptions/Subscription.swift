/// A handle to an observer; cancelling it, or releasing it, stops the observer at once.
///
/// Keep it for as long as you want states. After ``cancel()`` returns, the observer is never called
/// again, and the store lets go of it (and of whatever it captured) without waiting for another state.
/// A subscription never keeps its store alive.
///
/// This holds from any thread, for every form of subscription (raw handlers, props delivered on any
/// queue or on the main actor): ``cancel()`` called while the handler runs waits until that call has
/// returned (so the handler must not wait for the thread that cancels it), and ``cancel()`` called from
/// inside the handler returns at once. A props subscription's `props` closure is the handler's part
/// here: ``cancel()`` waits out a computation in progress, and none starts after it returns.
///
/// ```swift
/// let subscription = store.subscribe { state in print(state) }
/// // ...
/// subscription.cancel()
/// ```
public final class Subscription: Sendable {
    /// The gate the handler is called through, which `cancel()` closes and waits out before it removes
    /// the observer from its node (and stops a props subscription's debounce timer). It does not keep
    /// the node, and holds nothing the handler captured once the subscription has ended (a props
    /// subscription's pending timer holds its pipeline until then).
    private let gate: Gate

    /// A subscription whose handler runs on its tree's queue, through `gate`.
    init(gate: CallGate) {
        self.gate = .onQueue(gate)
    }

    /// A subscription whose props are delivered on a queue of the subscriber's choice, through `gate`.
    init(gate: DeliveryGate) {
        self.gate = .delivered(gate)
    }

    deinit {
        cancel()
    }

    /// Whether ``cancel()`` has been called.
    public var isCancelled: Bool {
        gate.isClosed
    }

    /// Stops the observer. Calling it again does nothing.
    public func cancel() {
        gate.cancel()
    }

    /// One of the two kinds of ``HandlerGate``. An enum of two classes takes one word, where an
    /// `any HandlerGate` took two (W4 counts the token's bytes with each deduplicating subscription),
    /// and its cases call their gate directly, with no witness table. The switches are in its own
    /// methods, where the enum is borrowed: switched over as the token's field, its gate was copied out
    /// first, a retain and a release on every call.
    private enum Gate: Sendable {
        /// A handler called on the tree's queue (``StoreHandle/subscription(removeDuplicates:_:)``).
        case onQueue(CallGate)
        /// A props subscription's handler, called on its delivery queue (``SubscriptionPipeline``).
        case delivered(DeliveryGate)

        var isClosed: Bool {
            switch self {
            case .onQueue(let gate): gate.isClosed
            case .delivered(let gate): gate.isClosed
            }
        }

        func cancel() {
            switch self {
            case .onQueue(let gate): gate.cancel()
            case .delivered(let gate): gate.cancel()
            }
        }
    }
}
