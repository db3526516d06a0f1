import Dispatch

/// A task executor that runs every job of its tasks on one serial queue, so that a test knows when a
/// task has run up to its first suspension: `drain(executor.queue)` returns once the jobs submitted so
/// far have run.
final class QueueTaskExecutor: TaskExecutor, Sendable {
    /// The queue the jobs run on.
    let queue = DispatchQueue(label: "canopy.tests.task-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
