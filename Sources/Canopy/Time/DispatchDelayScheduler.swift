public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The production ``DelayScheduler``: Dispatch's `asyncAfter` on the monotonic uptime clock.
public struct DispatchDelayScheduler: DelayScheduler {
    /// Creates the scheduler.
    public init() {}

    /// Seconds since boot, on the clock of `DispatchTime`.
    public var now: TimeInterval {
        Self.uptime()
    }

    /// ``now``, for callers that know the clock is this one: no witness-table call.
    @inline(__always)
    static func uptime() -> TimeInterval {
        #if os(Linux)
        // The clock `DispatchTime.now()` reads on Linux (libdispatch's uptime is `CLOCK_MONOTONIC`),
        // read directly: half the instructions, and an action recorder reads it for each action.
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        // In `Int64`: the monotonic clock is never negative, so this is the value `UInt64` would give,
        // without the checks of converting each part to `UInt64` or the longer unsigned conversion to
        // `Double` (about 8 instructions of each recorded action). Not `Int`, which is 32 bits on 32-bit
        // Linux, where the nanoseconds would wrap after two seconds.
        let nanoseconds = Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
        return TimeInterval(nanoseconds) / 1_000_000_000
        #else
        TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
        #endif
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
