import Canopy

/// A reminder about a task, due after a delay: its ``Effect/State`` waits out the delay, then the
/// reminder fires. Each reminder runs on its own (`effect(collection:)`); deleting or completing the
/// task, or setting a new reminder for it, cancels the one that was waiting.
struct Reminder: Equatable, Sendable {
    let taskID: Int
    /// Seconds from when it was set.
    let delay: Double
    var run: Effect.State

    init(taskID: Int, delay: Double) {
        self.taskID = taskID
        self.delay = delay
        self.run = .running(delay: delay)
    }
}
