import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What work started by id (``MiddlewareContext/run(id:cancelInFlight:operation:)``) uses to send its
/// results and to wait on the tree's clock.
///
/// Actions sent through ``send(_:)`` go to the node the work was started for. Once the run is
/// cancelled they are dropped, even those already queued: a late result never reaches a reducer.
///
/// ```swift
/// context.run(id: "search", cancelInFlight: true) { task in
///     try await task.sleep(for: 0.3)  // on the tree's clock: a test advances a ManualScheduler
///     task.send(.results(try await index.search(text)))
/// }
/// ```
public struct TaskContext<Action>: Sendable {
    let run: EffectRun
    let deliver: @Sendable (Action, EffectRun) -> Void
    let scheduler: any DelayScheduler
    let queue: DispatchQueue

    /// Whether the run has not been cancelled; its actions are reduced only while this is `true`.
    public var isCurrent: Bool {
        run.isCurrent
    }

    /// The time on the tree's clock, in seconds.
    public var now: TimeInterval {
        scheduler.now
    }

    /// Sends `action` to the node the run was started for (the node the action being handled was sent
    /// to). It is dropped if the run is cancelled before the action is taken from the queue.
    ///
    /// - Parameter action: The action to send.
    public func send(_ action: Action) {
        guard run.isCurrent else { return }
        deliver(action, run)
    }

    /// Waits `seconds` on the tree's clock (a ``ManualScheduler`` in tests).
    ///
    /// A cancelled wait takes its work off the clock before it throws, so once the error reaches the
    /// run nothing of the wait is left pending.
    ///
    /// - Parameter seconds: How long to wait.
    /// - Throws: `CancellationError` when the task is cancelled before or while waiting.
    public func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        let waiter = SleepWaiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.wait(continuation)
                waiter.hold(scheduler.schedule(after: seconds, on: queue) { waiter.wake() })
            }
        } onCancel: {
            waiter.cancel()
        }
    }
}

/// One wait of ``TaskContext/sleep(for:)``: resumes its continuation exactly once, when the time comes
/// or when the task is cancelled, whichever is first, in any order of the calls.
private final class SleepWaiter: Sendable {
    private struct Storage: Sendable {
        var continuation: CheckedContinuation<Void, any Error>?
        var work: ScheduledWork?
        var isCancelled = false
    }

    private let storage = LockedValue(Storage())

    func wait(_ continuation: CheckedContinuation<Void, any Error>) {
        let cancelled = storage.withLock { storage in
            if !storage.isCancelled { storage.continuation = continuation }
            return storage.isCancelled
        }
        if cancelled {
            continuation.resume(throwing: CancellationError())
        }
    }

    func hold(_ work: ScheduledWork) {
        let cancelNow = storage.withLock { storage in
            if !storage.isCancelled { storage.work = work }
            return storage.isCancelled
        }
        if cancelNow {
            work.cancel()
        }
    }

    func wake() {
        storage.withLock { storage in
            defer { storage.continuation = nil }
            return storage.continuation
        }?.resume()
    }

    func cancel() {
        let (continuation, work) = storage.withLock { storage in
            defer {
                storage.continuation = nil
                storage.work = nil
            }
            storage.isCancelled = true
            return (storage.continuation, storage.work)
        }
        work?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}
