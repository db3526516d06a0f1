import Canopy
import CanopyPersistence
import Dispatch
import Foundation

/// Everything the board's effects reach outside the store: time, the remote service, the disk. The
/// clock and the remote come from the dependencies in force where it is made (see
/// `Dependencies+TaskBoard.swift`): tests override them around a `ManualScheduler`.
struct Environment: Sendable {
    /// The clock of every delay in the tree: debounce, effect delays, retry backoff, remote latency.
    var scheduler: any DelayScheduler
    /// Wall-clock time, for timestamps that people read ("next retry at 10:15:03").
    var now: @Sendable () -> Date
    /// Runs the effects (their synchronous parts, and the start of their tasks).
    var effectQueue: DispatchQueue
    var sleeper: Sleeper
    var remote: RemoteService
    /// Stores the tasks that changed (registered with `persist` on the `tasks` store); `nil` keeps the
    /// board in memory only.
    var writer: (any StateWriter<TaskItem>)?
    /// The writer's debounce and retry policy; `onEvent` is set by `Board`, which reports to ``saves``.
    var persistence = PersistenceOptions(
        debounce: 0.25,
        maxDelay: 2,
        retryPolicy: Effect.RetryPolicy(baseDelay: 0.5, multiplier: 2, maxDelay: 4)
    )
    /// What the writer did last, for `status` and for the failures reported in the background.
    let saves = SaveEvents()
    /// The board's database, which hands out task ids (``TaskDatabase/reserveID()``); `nil` for a board
    /// in memory (the demo, tests), which counts ids itself.
    var database: TaskDatabase?
    /// Seconds between two looks, at the prompt, for what other processes stored in the board
    /// (``ExternalChangesWatch``); a command looks before it runs anyway.
    var externalChangesPoll: TimeInterval = 2
    /// Seconds a search waits for the query to stop changing.
    var searchDebounce: TimeInterval = 0.2
    /// Seconds a search takes, to make cancelling a running search visible.
    var searchLatency: TimeInterval = 0.05
    /// Seconds the Stats subscription waits for the tasks to stop changing.
    var statsDebounce: TimeInterval = 0.05
    /// Where the tree's runtime events go (`--log-level`); `nil` drops them.
    var diagnostics: (any StoreDiagnostics)?
    var sync = SyncState.Settings()
    /// The least time, in seconds, between the starts of two syncs (`SyncThrottle`): a guard against
    /// bursts, shorter than a call to the remote usually takes, so a command that waited for its sync
    /// rarely meets it.
    var syncThrottle: TimeInterval = 0.1

    init(
        now: @escaping @Sendable () -> Date = { Date() },
        writer: (any StateWriter<TaskItem>)? = nil
    ) {
        self.scheduler = Dependency[\.scheduler]
        self.now = now
        self.effectQueue = DispatchQueue(label: "taskboard.effects")
        self.sleeper = Sleeper(scheduler: scheduler)
        self.remote = Dependency[\.remote]
        self.writer = writer
    }
}
