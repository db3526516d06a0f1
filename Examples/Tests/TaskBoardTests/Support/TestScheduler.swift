import Canopy
import Dispatch
import Foundation
import Synchronization
import Testing

/// A `ManualScheduler` that tells waiting tests when work is scheduled or cancelled, so a test can
/// wait for a timer to be armed (an explicit signal) before it moves the clock.
///
/// The counts cover only work scheduled on the queues passed to ``track(_:)`` (the effects' and the
/// sleeper's), so that timers of the Stats subscription, which runs on the store's queue, do not
/// disturb tests about effects. ``manual`` still runs every piece of work.
final class TestScheduler: DelayScheduler {
    struct Counts: Sendable {
        /// Tracked work scheduled since the start.
        var scheduled = 0
        /// Tracked work scheduled and neither run nor cancelled.
        var pending = 0
    }

    private struct Waiter {
        let condition: @Sendable (Counts) -> Bool
        let resume: @Sendable () -> Void
    }

    private struct State {
        var tracked: [ObjectIdentifier] = []
        var counts = Counts()
        var nextID: UInt64 = 0
        var pending: Set<UInt64> = []
        var waiters: [Waiter] = []
    }

    let manual = ManualScheduler()
    private let state = Mutex(State())

    var now: TimeInterval { manual.now }

    var counts: Counts {
        state.withLock { $0.counts }
    }

    /// Counts the work scheduled on `queues` from now on.
    func track(_ queues: [DispatchQueue]) {
        state.withLock { $0.tracked = queues.map(ObjectIdentifier.init) }
    }

    func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let id = state.withLock { state -> UInt64? in
            guard state.tracked.contains(ObjectIdentifier(queue)) else { return nil }
            state.nextID += 1
            state.counts.scheduled += 1
            state.counts.pending += 1
            state.pending.insert(state.nextID)
            return state.nextID
        }
        let scheduled = manual.schedule(after: delay, on: queue) { [weak self] in
            self?.finished(id)
            work()
        }
        signal()
        return ScheduledWork { [weak self] in
            scheduled.cancel()
            self?.finished(id)
        }
    }

    /// Moves the clock; runs what falls due.
    func advance(by interval: TimeInterval) {
        manual.advance(by: interval)
    }

    /// Suspends until `condition` holds for the counts (or records an issue at the caller after the
    /// wait bound).
    func wait(
        until condition: @escaping @Sendable (Counts) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await boundedWait(for: "scheduled work (counts: \(counts))", sourceLocation: sourceLocation) { resume in
            let satisfied = state.withLock { state in
                guard !condition(state.counts) else { return true }
                state.waiters.append(Waiter(condition: condition, resume: resume))
                return false
            }
            if satisfied { resume() }
        }
    }

    /// Suspends until at least `count` pieces of tracked work were scheduled in all, with `pending` of
    /// them still waiting.
    func waitForScheduled(
        _ count: Int,
        pending: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    )
        async
    {
        await wait(
            until: { $0.scheduled >= count && (pending == nil || $0.pending == pending) },
            sourceLocation: sourceLocation
        )
    }

    private func finished(_ id: UInt64?) {
        guard let id else { return }
        let removed = state.withLock { state in
            guard state.pending.remove(id) != nil else { return false }
            state.counts.pending -= 1
            return true
        }
        if removed { signal() }
    }

    private func signal() {
        let ready = state.withLock { state in
            var ready: [@Sendable () -> Void] = []
            state.waiters.removeAll { waiter in
                guard waiter.condition(state.counts) else { return false }
                ready.append(waiter.resume)
                return true
            }
            return ready
        }
        for resume in ready { resume() }
    }
}
