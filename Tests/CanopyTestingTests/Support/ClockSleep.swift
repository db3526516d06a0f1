import Canopy
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension DelayScheduler {
    /// Returns after `seconds` of this scheduler's time; throws `CancellationError` as soon as the task
    /// is cancelled. Effects in these tests wait with it, as an app's effects wait on its clock.
    func sleep(for seconds: TimeInterval) async throws {  // allowed: the scheduler's clock
        let wait = ClockWait()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard wait.begin(continuation) else { return }
                wait.keep(schedule(after: seconds, on: ClockWait.queue) { wait.end(throwing: nil) })
            }
        } onCancel: {
            wait.end(throwing: CancellationError())
        }
    }
}

/// One sleep: resumed once, by its scheduled work or by cancellation.
private final class ClockWait: Sendable {
    static let queue = DispatchQueue(label: "canopy-testing-tests.sleep")

    private struct Storage {
        var continuation: CheckedContinuation<Void, any Error>?
        var work: ScheduledWork?
        var isOver = false
        var error: (any Error)?
    }

    private let storage = LockedValue(Storage())

    /// Keeps `continuation`, or resumes it at once when the sleep was cancelled before it began.
    func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = storage.withLock { storage in
            if storage.isOver { return true }
            storage.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    func keep(_ work: ScheduledWork) {
        let isOver = storage.withLock { storage in
            if !storage.isOver { storage.work = work }
            return storage.isOver
        }
        if isOver { work.cancel() }
    }

    func end(throwing error: (any Error)?) {
        let (continuation, work) = storage.withLock { storage in
            guard !storage.isOver else { return (CheckedContinuation<Void, any Error>?.none, ScheduledWork?.none) }
            storage.isOver = true
            defer {
                storage.continuation = nil
                storage.work = nil
            }
            return (storage.continuation, storage.work)
        }
        guard let continuation else { return }
        if let error {
            work?.cancel()
            continuation.resume(throwing: error)
        } else {
            continuation.resume()
        }
    }
}
