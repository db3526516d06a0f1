import Synchronization

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
    /// the observer from its node (and stops a props subscription's debounce timer). It reaches the node
    /// only weakly, and holds nothing the handler captured.
    private let gate: any HandlerGate

    /// A subscription whose handler runs through `gate`.
    init(gate: any HandlerGate) {
        self.gate = gate
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
}

/// A flag set once, read on every callback of a subscription.
final class CancellationFlag: Sendable {
    private let cancelled = Atomic(false)

    var isCancelled: Bool {
        cancelled.load(ordering: .acquiring)
    }

    func cancel() {
        cancelled.store(true, ordering: .releasing)
    }
}
