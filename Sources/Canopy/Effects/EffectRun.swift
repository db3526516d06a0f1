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
        /// Whether `perform` has begun (it then reports the run's end to the probe itself).
        var performed = false
        /// Follows the run for a test harness (`CanopyTesting`), when the tree's scheduler is one.
        var probe: (any EffectRunProbe)?
    }

    private let storage = LockedValue(Storage())
    /// With cycle detection on, the chain of actions that started the run: its actions are caused by
    /// them (SPEC 9).
    let causes: [String]?

    /// - Parameter causes: The chain of actions that started the run, when cycle detection follows it.
    init(causes: [String]? = nil) {
        self.causes = causes
    }

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
        if let harness = scheduler as? any TestHarness {
            let probe = harness.effectRunStarted(delayed: delay > 0)
            let cancelled = storage.withLock { storage in
                storage.probe = probe
                return storage.isCancelled
            }
            // Cancelled before the probe was stored: `cancel()` could not report the end.
            if cancelled {
                probe.ended()
            }
        }
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
        let (work, task, unperformedProbe) = storage.withLock { storage in
            defer {
                storage.scheduledWork = nil
                storage.task = nil
            }
            storage.isCancelled = true
            return (storage.scheduledWork, storage.task, storage.performed ? nil : storage.probe)
        }
        work?.cancel()
        task?.cancel()
        // A run cancelled before its body started is over; otherwise its body reports the end.
        unperformedProbe?.ended()
    }

    /// On the effect queue: runs the operation if the run is still current.
    private func perform(_ operation: Effect.Operation) {
        let (isCurrent, probe) = storage.withLock { storage in
            storage.performed = true
            return (!storage.isCancelled, storage.probe)
        }
        guard isCurrent else {
            probe?.ended()
            return
        }
        probe?.performing()
        switch operation {
        case .sync(let body):
            body()
            probe?.ended()
        case .async(let body):
            // The task is created and stored under the lock, so a `cancel()` that runs after the task's
            // first line finds it; creating a task only enqueues it and never calls back into this run.
            let started = storage.withLock { storage in
                guard !storage.isCancelled else { return false }
                if let probe {
                    storage.task = Task {
                        await EffectRunContext.$probe.withValue(probe) { await body() }
                        probe.ended()
                    }
                } else {
                    storage.task = Task { await body() }
                }
                return true
            }
            if !started {
                probe?.ended()
            }
        case .postpone:
            preconditionFailure("Internal inconsistency: a postponed effect was started")
        }
    }
}
