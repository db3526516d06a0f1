import Canopy
import Dispatch
import Foundation

/// Everything the board's effects reach outside the store: time, the remote service, the disk. The
/// program builds it from the command-line options; tests build it around a `ManualScheduler`.
struct Environment: Sendable {
    /// The clock of every delay in the tree: debounce, effect delays, retry backoff, remote latency.
    var scheduler: any DelayScheduler
    /// Wall-clock time, for timestamps that people read ("next retry at 10:15:03").
    var now: @Sendable () -> Date
    /// Runs the effects (their synchronous parts, and the start of their tasks).
    var effectQueue: DispatchQueue
    var sleeper: Sleeper
    var remote: RemoteService
    /// Writes the board to disk; `nil` keeps it in memory only.
    var writeTasks: (@Sendable (TasksSnapshot) throws -> Void)?
    /// Seconds a search waits for the query to stop changing.
    var searchDebounce: TimeInterval = 0.2
    /// Seconds a search takes, to make cancelling a running search visible.
    var searchLatency: TimeInterval = 0.05
    /// Seconds the Stats subscription waits for the tasks to stop changing.
    var statsDebounce: TimeInterval = 0.05
    var sync = SyncState.Settings()
    var saving = SaveState.Settings()

    init(
        scheduler: any DelayScheduler,
        now: @escaping @Sendable () -> Date = { Date() },
        remote: RemoteService.Configuration = RemoteService.Configuration(),
        remoteFile: JSONFile<RemoteService.Stored>? = nil,
        remoteStored: RemoteService.Stored? = nil,
        writeTasks: (@Sendable (TasksSnapshot) throws -> Void)? = nil
    ) {
        self.scheduler = scheduler
        self.now = now
        self.effectQueue = DispatchQueue(label: "taskboard.effects")
        self.sleeper = Sleeper(scheduler: scheduler)
        self.remote = RemoteService(configuration: remote, sleeper: sleeper, file: remoteFile, stored: remoteStored)
        self.writeTasks = writeTasks
    }
}
