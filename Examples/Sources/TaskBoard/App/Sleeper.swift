import Canopy
import Dispatch
import Foundation
import Synchronization

/// Waits through the tree's ``DelayScheduler`` instead of the wall clock, so a test that passes a
/// `ManualScheduler` decides when every wait ends. Waiting is cancellable: cancelling the task ends the
/// wait at once with `CancellationError` and drops the scheduled wake-up.
struct Sleeper: Sendable {
    let scheduler: any DelayScheduler
    /// Where wake-ups run; they only resume the waiting task.
    let queue: DispatchQueue

    init(scheduler: any DelayScheduler, queue: DispatchQueue = DispatchQueue(label: "taskboard.sleeper")) {
        self.scheduler = scheduler
        self.queue = queue
    }

    /// Returns after `seconds` on the scheduler's clock, or throws `CancellationError` as soon as the
    /// task is cancelled.
    func sleep(for seconds: TimeInterval) async throws {
        try Task.checkCancellation()
        guard seconds > 0 else { return }
        let wakeup = Wakeup()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard wakeup.wait(with: continuation) else { return }
                let work = scheduler.schedule(after: seconds, on: queue) { wakeup.finish(with: nil) }
                wakeup.keep(work)
            }
        } onCancel: {
            wakeup.finish(with: CancellationError())
        }
    }
}

/// One wait: resumed exactly once, by the scheduled work or by cancellation, whichever comes first.
private final class Wakeup: Sendable {
    private struct Storage {
        var continuation: CheckedContinuation<Void, any Error>?
        var work: ScheduledWork?
        var outcome: (any Error)??
    }

    private let storage = Mutex(Storage())

    /// Stores the continuation, or resumes it at once if the wait already ended (cancelled before it
    /// began). Returns whether the caller should schedule the wake-up.
    func wait(with continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let outcome = storage.withLock { storage -> (any Error)?? in
            if let outcome = storage.outcome { return .some(outcome) }
            storage.continuation = continuation
            return .none
        }
        guard let outcome else { return true }
        resume(continuation, outcome)
        return false
    }

    /// Keeps the scheduled work so that cancellation can drop it; drops it at once if the wait ended.
    func keep(_ work: ScheduledWork) {
        let ended = storage.withLock { storage in
            if storage.outcome != nil { return true }
            storage.work = work
            return false
        }
        if ended { work.cancel() }
    }

    /// Ends the wait: normally with `nil`, or with the error to throw.
    func finish(with error: (any Error)?) {
        let (continuation, work) = storage.withLock { storage in
            guard storage.outcome == nil else {
                return (CheckedContinuation<Void, any Error>?.none, ScheduledWork?.none)
            }
            storage.outcome = .some(error)
            defer {
                storage.continuation = nil
                storage.work = nil
            }
            return (storage.continuation, storage.work)
        }
        if error != nil { work?.cancel() }
        if let continuation { resume(continuation, error) }
    }

    private func resume(_ continuation: CheckedContinuation<Void, any Error>, _ error: (any Error)?) {
        if let error {
            continuation.resume(throwing: error)
        } else {
            continuation.resume()
        }
    }
}
