import Dispatch
// Public: the gate's calls (`withCall`) are inlined into dedup checks compiled in the app's module.
public import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The gate a subscription's handler is called through when it runs on the tree's queue
/// (``StoreHandle/subscription(removeDuplicates:_:)``), and the token's way back to the node that holds
/// its observer.
///
/// The calls all happen on the tree's queue, one at a time, while the tree's ``CallingThread`` notes
/// the thread making them. A call marks the gate busy (one atomic compare-and-exchange) and clears it
/// when it returns: no lock and no allocation per call. ``cancel()`` from another thread during a call
/// registers as a waiter and blocks until the call returns; ``cancel()`` from inside the handler (on the
/// thread noted) returns at once, and the call goes on to its end. Either way, the first ``cancel()``
/// then asks the node to remove the observer. A handler must not wait for a thread that is cancelling
/// its own subscription.
///
/// The gate does not hold the handler: the node's observer does (its delivery closure, or the dedup
/// check's ``ProjectionFilter``, holds the gate and the handler), so that whatever the handler captured
/// goes with the observer (when the subscription is cancelled or the store goes), while the token may
/// live on.
///
/// The gate is also how its node finds the observer again: it keeps the observer's slot (``slot``),
/// which the node's list keeps current, and the list's record holds the gate
/// (``ObserverRecord/subscription``), so a cancel looks at that one slot, with no index of ids to keep
/// or probe. An observer in a child's cell, which holds no gate, has the id made from the gate
/// (``observerID``), which the cancel compares instead.
@usableFromInline
final class CallGate: Sendable {
    // The state word: bit 0 is set during a call, bit 1 once closed, and the bits above count the
    // closers waiting for the call to return.
    @usableFromInline
    static var calling: Int { 1 }
    private static var closed: Int { 2 }
    private static var oneWaiter: Int { 4 }

    @usableFromInline
    let state = Atomic<Int>(0)
    /// The thread calling the tree's observers, which makes this gate's calls.
    private let callingThread: CallingThread
    /// Signalled once per waiter when a call that had waiters returns. Made by the first closer that
    /// must wait, before it counts itself as a waiter; most gates close with no call in progress, and
    /// never make one.
    private let returned = AtomicLazyReference<DispatchSemaphore>()
    /// The link of the node that holds the observer, asked to remove it on cancel. The link does not keep
    /// the node, so a subscription never keeps its store alive (``NodeLink/nodeIfInTree``).
    private let host: NodeLink?
    /// The observer's slot in its node: 0 while it is a child's first observer, in its cell, and its slot
    /// in the node's list otherwise, written by the list as it adds or moves the observer
    /// (``ObserverStorage``). Only the tree's queue writes and reads it, and the queue orders those uses,
    /// so relaxed loads and stores suffice: plain moves.
    var slot: Int {
        get { storedSlot.load(ordering: .relaxed) }
        set { storedSlot.store(newValue, ordering: .relaxed) }
    }
    private let storedSlot = Atomic<Int>(0)

    /// A gate for an observer that `host` holds; `callingThread` is its tree's.
    init(host: NodeLink?, callingThread: CallingThread) {
        self.host = host
        self.callingThread = callingThread
    }

    /// The id of the observer called through this gate (``SubscriptionIDs/id(of:)``).
    var observerID: UUID {
        SubscriptionIDs.id(of: self)
    }

    /// Whether ``cancel()`` has been called.
    var isClosed: Bool {
        state.load(ordering: .acquiring) & Self.closed != 0
    }

    /// Runs `body` unless the gate is closed; returns whether it ran. Called only on the tree's queue.
    @inlinable
    @inline(__always)
    func withCall(_ body: () -> Void) -> Bool {
        guard state.compareExchange(expected: 0, desired: Self.calling, ordering: .acquiring).exchanged else {
            return false  // closed: calls never overlap, so nothing else can be set here
        }
        body()
        if !state.compareExchange(expected: Self.calling, desired: 0, ordering: .releasing).exchanged {
            releaseWaiters()
        }
        return true
    }

    /// Closes the gate: returns once no call is in progress (other than the caller's own, when called
    /// from inside the handler), and no call starts afterwards. Closing again does nothing more.
    ///
    /// - Returns: Whether this call closed the gate (`false` when it was closed already).
    @discardableResult
    private func close() -> Bool {
        var current = state.load(ordering: .acquiring)
        while true {
            let inCall = current & Self.calling != 0
            let mustWait = inCall && !callingThread.isCurrent
            // The semaphore exists before the waiter is counted, so the call that sees the count finds it.
            let semaphore = mustWait ? (returned.load() ?? returned.storeIfNil(DispatchSemaphore(value: 0))) : nil
            let desired = (current | Self.closed) + (mustWait ? Self.oneWaiter : 0)
            let (exchanged, original) = state.compareExchange(
                expected: current,
                desired: desired,
                ordering: .acquiringAndReleasing
            )
            if exchanged {
                if let semaphore {
                    semaphore.wait()
                    // Pairs with the exchange in `releaseWaiters`, so the call's effects are visible.
                    _ = state.load(ordering: .acquiring)
                }
                return current & Self.closed == 0
            }
            current = original
        }
    }

    /// After a call that closers wait for: ends the call, keeps the gate closed, wakes every waiter.
    @usableFromInline
    func releaseWaiters() {
        let previous = state.exchange(Self.closed, ordering: .acquiringAndReleasing)
        let waiters = previous / Self.oneWaiter
        guard waiters > 0, let semaphore = returned.load() else { return }
        for _ in 0..<waiters {
            semaphore.signal()
        }
    }
}

extension CallGate: HandlerGate {
    func cancel() {
        guard close() else { return }
        enqueueRemoval()
    }

    /// Has the queue remove the observer called through this gate from its node, if the node is still in
    /// its tree, without closing the gate: what ``cancel()`` does once it has closed it, and how a props
    /// subscription, whose own gate stops its calls (``DeliveryGate``), lets go of its observer.
    /// Inlined: called apart, it cost each cancel a call and a retain and release of the gate (19).
    @inline(__always)
    func enqueueRemoval() {
        guard let host = host?.nodeIfInTree else { return }
        // The batch holds this gate, not the node: a removal waiting for the queue does not keep the
        // node, which may go meanwhile.
        host.enqueueRemoval(of: self)
    }

    /// On the tree's queue: removes the observer from its node, if the node is still there, leaving
    /// its slot empty until the node's ``TreeNode/compactObservers()``.
    ///
    /// - Returns: The node, if the observer was removed from one.
    func removeObserverLeavingSlot() -> TreeNode? {
        guard let host = host?.nodeIfInTree?.onQueue else { return nil }
        host.removeObserver(of: self)
        return host
    }
}
