import Canopy
import Foundation

/// The Sync feature's state, owned by the `sync` child store (below `tasks`, so it sees the tasks).
///
/// `run` is an ``Effect/State``: the reducer starts it, retries it with backoff when an attempt
/// fails, and cancels it; the sync effect watches it and does one remote call per attempt.
struct SyncState: Equatable, Sendable {
    enum Direction: String, Codable, Equatable, Sendable {
        case push
        case pull
    }

    struct Settings: Equatable, Sendable {
        /// Attempts in all, the first included.
        var maxAttempts = 4
        /// The delays before retries: 1, 2, 4… seconds, at most 8, by default.
        var retryPolicy = Effect.RetryPolicy(baseDelay: 1, multiplier: 2, maxDelay: 8)
        /// Seconds between pushes while auto-sync is on.
        var autoSyncInterval: TimeInterval = 30
    }

    struct FailedAttempt: Equatable, Sendable {
        /// 0 for the first attempt.
        let attempt: Int
        let reason: String
        let at: Date
    }

    var settings: Settings
    var run = Effect.State()
    var direction: Direction?
    /// The attempt the effect is working on; behind `run.currentAttempt` while a retry waits.
    var activeAttempt: Int?
    var lastFailure: FailedAttempt?
    /// What the last finished sync did, in words.
    var lastOutcome: String?
    var autoSync = false

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// When the retry that is waiting will start, if one is.
    var nextRetryAt: Date? {
        guard let attempt = run.currentAttempt, attempt != activeAttempt, let delay = run.delay,
            let failure = lastFailure, failure.attempt == attempt - 1
        else { return nil }
        return failure.at.addingTimeInterval(delay)
    }

    /// The Sync reducer, scoped to the Sync actions.
    static let reducer: Reducer<SyncState, AppAction> = Reducers.scope(
        state: \.self,
        action: \.sync,
        reducer: { state, action in state.reduce(action) }
    )

    private mutating func reduce(_ action: SyncAction) {
        switch action {
        case .start(let direction):
            start(direction)
        case .autoSyncTick:
            if autoSync { start(.push) }
        case .cancel:
            guard run.isInProgress else { return }
            run.cancel()
            lastOutcome = "\(direction?.rawValue ?? "sync") cancelled"
        case .attemptStarted(let attempt):
            activeAttempt = attempt
        case .attemptFailed(let reason, let at):
            guard let attempt = run.currentAttempt else { return }
            lastFailure = FailedAttempt(attempt: attempt, reason: reason, at: at)
            run.retryOrFailWith(RemoteService.Failure(description: reason))
            if run.isFailed {
                let attempts = settings.maxAttempts == 1 ? "1 attempt" : "\(settings.maxAttempts) attempts"
                lastOutcome = "\(direction?.rawValue ?? "sync") failed after \(attempts): \(reason)"
            }
        case .pushed(let count, let revision):
            guard run.isInProgress else { return }
            run.succeed()
            lastOutcome = "pushed \(count) \(count == 1 ? "task" : "tasks") (remote revision \(revision))"
        case .pulled(let stored):
            guard run.isInProgress else { return }
            run.succeed()
            if let stored {
                let count = stored.board.tasks.count
                lastOutcome = "pulled \(count) \(count == 1 ? "task" : "tasks") (remote revision \(stored.revision))"
            } else {
                lastOutcome = "the remote is empty; nothing was pulled (push first)"
            }
        case .setAutoSync(let on):
            autoSync = on
        }
    }

    private mutating func start(_ direction: Direction) {
        guard !run.isInProgress else { return }
        self.direction = direction
        activeAttempt = nil
        lastFailure = nil
        lastOutcome = nil
        run.run(maxAttempts: settings.maxAttempts, retryPolicy: settings.retryPolicy)
    }
}
