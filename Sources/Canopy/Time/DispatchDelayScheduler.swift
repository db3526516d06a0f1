public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The production ``DelayScheduler``: Dispatch's `asyncAfter` on the monotonic uptime clock.
public struct DispatchDelayScheduler: DelayScheduler {
    /// Creates the scheduler.
    public init() {}

    /// Seconds since boot, from `DispatchTime`.
    public var now: TimeInterval {
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
    }

    /// Runs `work` on `queue` after `delay` seconds, unless cancelled first.
    ///
    /// - Parameters:
    ///   - delay: Seconds to wait.
    ///   - queue: The queue that runs `work`.
    ///   - work: The work to run.
    /// - Returns: A handle that cancels the work.
    public func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let pending = PendingWork(work)
        if delay > 0 {
            queue.asyncAfter(deadline: .now() + delay) { pending.run() }
        } else {
            queue.async { pending.run() }
        }
        return ScheduledWork { pending.cancel() }
    }
}

/// Work that runs at most once and can be cancelled before it runs; cancelling drops the closure at
/// once, so whatever it captured is released without waiting for the deadline.
private final class PendingWork: Sendable {
    private let work: LockedValue<(@Sendable () -> Void)?>

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = LockedValue(work)
    }

    func run() {
        work.exchange(nil)?()
    }

    /// Drops the closure; what it captured is released here, after the lock.
    func cancel() {
        _ = work.exchange(nil)
    }
}
