import Dispatch

/// Lets a subscription's handler be called on any thread until the gate is closed, and makes closing
/// wait out the calls in progress, so that once ``close()`` returns the handler is not running and
/// never runs again.
///
/// For the handlers of props subscriptions, which run on a delivery queue of the subscriber's choice
/// (serial or concurrent) or on the main actor. Each call already costs a queue hop, so the gate keeps
/// its bookkeeping under a lock: the threads in a call, and how many closers wait for them. A closer
/// waits for every call but its own (``close()`` from inside the handler returns at once); each call
/// that returns while closers wait wakes them to look again. A handler must not wait for a thread that
/// is closing its own gate.
final class DeliveryGate: HandlerGate {
    private struct State: Sendable {
        var isClosed = false
        /// The thread of each call in progress.
        var callers: [UInt] = []
        /// The closers waiting for calls on other threads to return.
        var waiters = 0
    }

    private let state = LockedValue(State())
    /// Signalled once per waiting closer when a call returns after the gate closed.
    private let returned = DispatchSemaphore(value: 0)
    let flag = CancellationFlag()
    /// Run once, by the ``cancel()`` that closes the gate: removes the observer from its node and stops
    /// the pipeline's timer. It holds neither the store nor anything the handler captured.
    private let onCancel: @Sendable () -> Void

    /// A gate whose first ``cancel()`` runs `onCancel` once the calls in progress have returned.
    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
    }

    /// Runs `body` unless the gate is closed; returns whether it ran. Any thread.
    func withCall(_ body: () -> Void) -> Bool {
        let thread = CallingThread.currentID
        let admitted = state.withLock { state in
            guard !state.isClosed else { return false }
            state.callers.append(thread)
            return true
        }
        guard admitted else { return false }
        body()
        let waiters = state.withLock { state in
            if let index = state.callers.lastIndex(of: thread) {
                state.callers.swapAt(index, state.callers.count - 1)
                state.callers.removeLast()
            }
            defer { state.waiters = 0 }
            return state.waiters
        }
        for _ in 0..<waiters {
            returned.signal()
        }
        return true
    }

    var isClosed: Bool {
        flag.isCancelled
    }

    func cancel() {
        if close() {
            onCancel()
        }
    }

    /// Closes the gate: returns once no call is in progress on another thread, and no call starts
    /// afterwards.
    ///
    /// - Returns: Whether this call closed the gate (`false` when it was closed already).
    @discardableResult
    func close() -> Bool {
        flag.cancel()
        let thread = CallingThread.currentID
        var closedHere = false
        while true {
            let mustWait = state.withLock { state in
                if !state.isClosed {
                    state.isClosed = true
                    closedHere = true
                }
                guard state.callers.contains(where: { $0 != thread }) else { return false }
                state.waiters += 1
                return true
            }
            guard mustWait else { return closedHere }
            returned.wait()
        }
    }
}
