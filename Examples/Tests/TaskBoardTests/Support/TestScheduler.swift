import Canopy
import Dispatch
import Foundation
import Synchronization

/// A `ManualScheduler` that tells waiting tests when work is scheduled or cancelled, so a test can
/// wait for a timer to be armed (an explicit signal) before it moves the clock.
final class TestScheduler: DelayScheduler {
    struct Counts: Sendable {
        /// Work scheduled since the start.
        var scheduled = 0
        /// Work scheduled and neither run nor cancelled.
        var pending = 0
    }

    private struct Waiter {
        let condition: @Sendable (Counts) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    let manual = ManualScheduler()
    private let state = Mutex<(scheduled: Int, waiters: [Waiter])>((0, []))

    var now: TimeInterval { manual.now }

    var counts: Counts {
        Counts(scheduled: state.withLock { $0.scheduled }, pending: manual.pendingCount)
    }

    func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let scheduled = manual.schedule(after: delay, on: queue) { [weak self] in
            work()
            self?.signal()
        }
        state.withLock { $0.scheduled += 1 }
        signal()
        return ScheduledWork { [weak self] in
            scheduled.cancel()
            self?.signal()
        }
    }

    /// Moves the clock; runs what falls due.
    func advance(by interval: TimeInterval) {
        manual.advance(by: interval)
        signal()
    }

    /// Suspends until `condition` holds for the counts.
    func wait(until condition: @escaping @Sendable (Counts) -> Bool) async {
        await withCheckedContinuation { continuation in
            let counts = self.counts
            let satisfied = state.withLock { state in
                guard !condition(counts) else { return true }
                state.waiters.append(Waiter(condition: condition, continuation: continuation))
                return false
            }
            if satisfied { continuation.resume() }
        }
        // Counts may change between the check and the resume; callers re-check state they rely on.
    }

    /// Suspends until at least `count` pieces of work were scheduled in all, with `pending` of them
    /// still waiting.
    func waitForScheduled(_ count: Int, pending: Int? = nil) async {
        await wait { $0.scheduled >= count && (pending == nil || $0.pending == pending) }
    }

    private func signal() {
        let counts = self.counts
        let ready = state.withLock { state in
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(counts) else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
