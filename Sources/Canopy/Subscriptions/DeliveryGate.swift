import Dispatch
import Synchronization

/// The gate of a props subscription (``SubscriptionPipeline``): lets its props closure and handler be
/// called on any thread until the gate is closed, and makes closing wait out the calls in progress, so
/// that once ``close()`` returns neither is running and neither runs again. The first close also stops
/// what the subscription has going: its debounce timer, and its observer in the node.
///
/// Its calls run on a delivery queue of the subscriber's choice (serial or concurrent), on the main
/// actor, or on a presentation queue. Each call already costs a queue hop, so the gate keeps its
/// bookkeeping under a lock: the threads in a call, and how many closers wait for them. A closer waits
/// for every call but its own (``close()`` from inside the handler returns at once); each call that
/// returns while closers wait wakes them to look again. A handler must not wait for a thread that is
/// closing its own gate.
///
/// Everything a subscription needs to stop is kept here, in the one object: the pipeline holds the gate,
/// and the token holds the gate without the pipeline, so that a token kept after its subscription ends
/// keeps nothing the subscriber gave.
final class DeliveryGate: HandlerGate {
    private struct State: Sendable {
        var isClosed = false
        /// The thread of the first call in progress, if any; most gates never have two at once.
        var caller: UInt?
        /// The threads of the other calls in progress, on a concurrent queue.
        var otherCallers: [UInt] = []
        /// The closers waiting for calls on other threads to return.
        var waiters = 0
        /// The pipeline's debounce timer. Started on the store's queue; cancelled from any thread when
        /// the subscription ends, so a cancelled subscription leaves nothing scheduled.
        var timer: ScheduledWork?

        mutating func enter(_ thread: UInt) {
            if caller == nil {
                caller = thread
            } else {
                otherCallers.append(thread)
            }
        }

        mutating func leave(_ thread: UInt) {
            if caller == thread {
                caller = otherCallers.popLast()
            } else if let index = otherCallers.lastIndex(of: thread) {
                otherCallers.swapAt(index, otherCallers.count - 1)
                otherCallers.removeLast()
            }
        }

        func hasCaller(besides thread: UInt) -> Bool {
            (caller.map { $0 != thread } ?? false) || otherCallers.contains { $0 != thread }
        }
    }

    /// The bookkeeping and the timer, under one lock. Not `Mutex`: on Linux the thread sanitizer cannot
    /// see it (``LockedValue``), and calls on two queues would look like races to it.
    private let state = LockedValue(State())
    /// Set by the first ``close()``, or when the pipeline ends (``end()``): no delivery happens after.
    private let ended = Atomic<Bool>(false)
    /// Signalled once per waiting closer when a call returns after the gate closed. Made by the first
    /// closer that must wait, before it counts itself as a waiter, under the lock; most gates close with
    /// no call on another thread, and never make one.
    private let returned = AtomicLazyReference<DispatchSemaphore>()
    /// The gate through which the node finds the pipeline's observer (``CallGate/enqueueRemoval()``).
    /// Holds neither the pipeline (nor what it captured) nor the store, and its node's link does not
    /// keep the node: if the store goes first, so does the observer.
    private let observerGate: CallGate

    /// A gate whose first ``cancel()`` stops the timer and has the observer of `observerGate` removed,
    /// once the calls in progress have returned.
    init(observerGate: CallGate) {
        self.observerGate = observerGate
    }

    /// Runs `body` unless the gate is closed; returns whether it ran. Any thread.
    func withCall(_ body: () -> Void) -> Bool {
        let thread = CallingThread.currentID
        let admitted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.enter(thread)
            return true
        }
        guard admitted else { return false }
        body()
        let waiters = state.withLock { state in
            state.leave(thread)
            defer { state.waiters = 0 }
            return state.waiters
        }
        if waiters > 0, let returned = returned.load() {
            for _ in 0..<waiters {
                returned.signal()
            }
        }
        return true
    }

    /// Whether the subscription has ended: closed, or ended by its pipeline.
    var isClosed: Bool {
        ended.load(ordering: .acquiring)
    }

    func cancel() {
        if close() {
            stopTimer()
            observerGate.enqueueRemoval()
        }
    }

    /// Marks the subscription ended, without closing the gate, and stops its timer: the pipeline's
    /// observer is gone from the node.
    func end() {
        ended.store(true, ordering: .releasing)
        stopTimer()
    }

    /// Keeps `started`, the pipeline's new timer, in place of the one before, which it cancels; or
    /// cancels `started` itself when the subscription has ended meanwhile, so that a timer started as
    /// it ends is not left behind.
    func replaceTimer(with started: ScheduledWork) {
        state.withLock { state -> ScheduledWork? in
            // `end()` and `close()` set the flag before they take the lock to stop the timer: here, under
            // the lock, either the flag is seen or the timer is kept for them to stop.
            if ended.load(ordering: .acquiring) {
                return started
            }
            let previous = state.timer
            state.timer = started
            return previous
        }?.cancel()
    }

    /// Forgets the timer that has just fired.
    func forgetFiredTimer() {
        state.withLock { $0.timer = nil }
    }

    /// Cancels the pipeline's timer, if one is pending.
    func stopTimer() {
        state.withLock { state in
            let previous = state.timer
            state.timer = nil
            return previous
        }?.cancel()
    }

    /// Closes the gate: returns once no call is in progress on another thread, and no call starts
    /// afterwards.
    ///
    /// - Returns: Whether this call closed the gate (`false` when it was closed already).
    @discardableResult
    func close() -> Bool {
        ended.store(true, ordering: .releasing)
        let thread = CallingThread.currentID
        var closedHere = false
        while true {
            let semaphore = state.withLock { state -> DispatchSemaphore? in
                if !state.isClosed {
                    state.isClosed = true
                    closedHere = true
                }
                guard state.hasCaller(besides: thread) else { return nil }
                state.waiters += 1
                return returned.load() ?? returned.storeIfNil(DispatchSemaphore(value: 0))
            }
            guard let semaphore else { return closedHere }
            semaphore.wait()
        }
    }
}
