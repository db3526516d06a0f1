import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One started run of an effect: its pending delay, its task, and whether it is still current.
///
/// It references neither the store nor its runner, so scheduled work and tasks never keep a store
/// alive. Every member may be called from any thread.
final class EffectRun: Sendable {
    private struct Storage: Sendable {
        var isCancelled = false
        var scheduledWork: ScheduledWork?
        var task: Task<Void, Never>?
    }

    private let storage = LockedValue(Storage())

    init() {}

    /// Whether the run has not been cancelled. Its actions are reduced only while this is `true`.
    var isCurrent: Bool {
        storage.withLock { !$0.isCancelled }
    }

    /// Runs `operation` on `queue` after `delay` seconds (through `scheduler` when the delay is
    /// positive), unless the run is cancelled first.
    func start(
        _ operation: Effect.Operation,
        after delay: TimeInterval,
        on queue: DispatchQueue,
        scheduler: any DelayScheduler
    ) {
        guard delay > 0 else {
            queue.async { self.perform(operation) }
            return
        }
        let work = scheduler.schedule(after: delay, on: queue) { self.perform(operation) }
        let cancelNow = storage.withLock { storage in
            guard !storage.isCancelled else { return true }
            storage.scheduledWork = work
            return false
        }
        if cancelNow {
            work.cancel()
        }
    }

    /// Stops the run: pending work is dropped, a running task is cancelled, and ``isCurrent`` becomes
    /// `false`. Calling it again does nothing.
    func cancel() {
        let (work, task) = storage.withLock { storage in
            defer {
                storage.scheduledWork = nil
                storage.task = nil
            }
            storage.isCancelled = true
            return (storage.scheduledWork, storage.task)
        }
        work?.cancel()
        task?.cancel()
    }

    /// On the effect queue: runs the operation if the run is still current.
    private func perform(_ operation: Effect.Operation) {
        guard isCurrent else { return }
        switch operation {
        case .sync(let body):
            body()
        case .async(let body):
            // The task is created and stored under the lock, so a `cancel()` that runs after the task's
            // first line finds it; creating a task only enqueues it and never calls back into this run.
            storage.withLock { storage in
                guard !storage.isCancelled else { return }
                storage.task = Task { await body() }
            }
        case .postpone:
            preconditionFailure("Internal inconsistency: a postponed effect was started")
        }
    }
}
