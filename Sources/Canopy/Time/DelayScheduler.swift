public import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The clock every delay in Canopy goes through: debounce windows, effect delays and retry backoff.
///
/// Production stores use ``DispatchDelayScheduler``. Tests pass a ``ManualScheduler`` to a store's
/// initializer and move time forward themselves, so nothing has to sleep.
///
/// ```swift
/// let scheduler = ManualScheduler()
/// let store = StateStore(0, scheduler: scheduler) { state, action in state += action }
/// scheduler.advance(by: 0.5)
/// ```
public protocol DelayScheduler: Sendable {
    /// The current time, in seconds, on a monotonic clock with an arbitrary origin.
    var now: TimeInterval { get }

    /// Runs `work` on `queue` once `delay` seconds have passed.
    ///
    /// - Parameters:
    ///   - delay: Seconds to wait; zero or less runs the work as soon as possible.
    ///   - queue: The queue that runs `work`.
    ///   - work: The work to run.
    /// - Returns: A handle whose ``ScheduledWork/cancel()`` keeps the work from running.
    func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork
}

/// A handle to work handed to a ``DelayScheduler``.
public struct ScheduledWork: Sendable {
    private let cancelHandler: @Sendable () -> Void

    /// Creates a handle that calls `cancel` when the work is cancelled.
    ///
    /// - Parameter cancel: Keeps the scheduled work from running. It may be called more than once.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelHandler = cancel
    }

    /// Keeps the work from running if it has not started yet. Calling it again does nothing.
    public func cancel() {
        cancelHandler()
    }
}
