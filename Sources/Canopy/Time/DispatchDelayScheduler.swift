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
