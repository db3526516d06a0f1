public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A ``DelayScheduler`` whose time moves only when you call ``advance(by:)``.
///
/// Use it in tests so that debounce windows, effect delays and retry backoff happen at once and in a
/// known order, with no sleeping.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let store = StateStore(Search(), scheduler: scheduler, reducer: Search.reduce)
/// store.dispatch(.query("canopy"))
/// scheduler.advance(by: 0.3)  // the debounced search starts now
/// ```
///
/// Work runs synchronously inside ``advance(by:)``, on the queue it was scheduled for
/// (`queue.sync`), so when `advance` returns every due piece of work has finished. Call it from a
/// thread that is not one of those queues.
public final class ManualScheduler: DelayScheduler {
    private struct Item: Sendable {
        let deadline: TimeInterval
        let sequence: UInt64
        let queue: DispatchQueue
        /// Emptied by a cancel, so a cancel that comes after `advance` took the item out, but before the
        /// work ran on its queue, still stops it.
        let work: PendingWork
    }

    private struct Timeline: Sendable {
        var now: TimeInterval = 0
        var nextSequence: UInt64 = 0
        var items: [Item] = []
    }

    private let timeline = LockedValue(Timeline())

    /// Creates a scheduler whose clock starts at zero.
    public init() {}

    /// The scheduler's current time, in seconds since it was created.
    public var now: TimeInterval {
        timeline.withLock { $0.now }
    }

    /// The number of pieces of work scheduled and not yet run or cancelled.
    public var pendingCount: Int {
        timeline.withLock { $0.items.count }
    }

    /// Schedules `work` to run on `queue` when the clock reaches `now + delay`.
    ///
    /// - Parameters:
    ///   - delay: Seconds from the current manual time.
    ///   - queue: The queue that runs `work` when the clock gets there.
    ///   - work: The work to run.
    /// - Returns: A handle that removes the work.
    public func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let pending = PendingWork(work)
        let sequence = timeline.withLock { timeline in
            let sequence = timeline.nextSequence
            timeline.nextSequence += 1
            let deadline = timeline.now + max(delay, 0)
            timeline.items.append(Item(deadline: deadline, sequence: sequence, queue: queue, work: pending))
            return sequence
        }
        // The cancel holds the timeline, not the scheduler: a weak reference to the scheduler would give it
        // a side table, allocated for every piece of work, for nothing (the timeline holds no cancel).
        return ScheduledWork { [timeline] in
            pending.cancel()
            // The removed item (and what its work captured) is released after the lock.
            _ = timeline.withLock { timeline -> Item? in
                guard let index = timeline.items.firstIndex(where: { $0.sequence == sequence }) else { return nil }
                return timeline.items.remove(at: index)
            }
        }
    }

    /// Moves the clock forward by `interval` seconds, running every piece of work that falls due, in
    /// deadline order (ties in the order they were scheduled).
    ///
    /// Work scheduled by the work that runs is run too if it falls due before the new time.
    ///
    /// - Parameter interval: Seconds to move forward; must be zero or more.
    public func advance(by interval: TimeInterval = 0) {
        precondition(interval >= 0, "ManualScheduler.advance(by:) needs a non-negative interval, got \(interval)")
        let target = timeline.withLock { $0.now + interval }
        while let item = takeNext(dueBy: target) {
            dispatchPrecondition(condition: .notOnQueue(item.queue))
            item.queue.sync { item.work.run() }
        }
        timeline.withLock { $0.now = max($0.now, target) }
    }

    /// Runs every piece of work that is due now, without moving the clock.
    public func runDue() {
        advance(by: 0)
    }

    private func takeNext(dueBy target: TimeInterval) -> Item? {
        timeline.withLock { timeline in
            guard
                let index = timeline.items.indices.min(by: { lhs, rhs in
                    let left = timeline.items[lhs]
                    let right = timeline.items[rhs]
                    return (left.deadline, left.sequence) < (right.deadline, right.sequence)
                }),
                timeline.items[index].deadline <= target
            else { return nil }
            let item = timeline.items.remove(at: index)
            timeline.now = max(timeline.now, item.deadline)
            return item
        }
    }
}
