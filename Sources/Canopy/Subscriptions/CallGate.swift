import Dispatch
import Synchronization

/// Lets a subscription's handler be called until the gate is closed, and makes closing wait out a call
/// already in progress, so that once ``close()`` returns the handler is not running and never runs
/// again.
///
/// The calls all happen on the tree's queue, one at a time, while the tree's ``CallingThread`` notes
/// the thread making them. A call marks the gate busy (one atomic compare-and-exchange) and clears it
/// when it returns: no lock and no allocation per call. ``close()`` from another thread during a call
/// registers as a waiter and blocks until the call returns; ``close()`` from inside the handler (on the
/// thread noted) returns at once, and the call goes on to its end. A handler must not wait for a thread
/// that is closing its own gate.
final class CallGate: Sendable {
    // The state word: bit 0 is set during a call, bit 1 once closed, and the bits above count the
    // closers waiting for the call to return.
    private static let calling = 1
    private static let closed = 2
    private static let oneWaiter = 4

    private let state = Atomic<Int>(0)
    /// The thread calling the tree's observers, which makes this gate's calls.
    private let callingThread: CallingThread
    /// Signalled once per waiter when a call that had waiters returns. Made by the first closer that
    /// must wait, before it counts itself as a waiter; most gates close with no call in progress, and
    /// never make one.
    private let returned = AtomicLazyReference<DispatchSemaphore>()

    init(callingThread: CallingThread) {
        self.callingThread = callingThread
    }

    /// Whether ``close()`` has been called.
    var isClosed: Bool {
        state.load(ordering: .acquiring) & Self.closed != 0
    }

    /// Runs `body` unless the gate is closed; returns whether it ran. Called only on the tree's queue.
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
    func close() -> Bool {
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
    private func releaseWaiters() {
        let previous = state.exchange(Self.closed, ordering: .acquiringAndReleasing)
        let waiters = previous / Self.oneWaiter
        guard waiters > 0, let semaphore = returned.load() else { return }
        for _ in 0..<waiters {
            semaphore.signal()
        }
    }
}
