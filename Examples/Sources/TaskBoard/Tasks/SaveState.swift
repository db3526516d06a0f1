import Canopy
import Foundation

/// Whether the board on disk is up to date, kept in ``TasksState``.
///
/// Every change restarts `run` with a short delay, so a burst of changes ends in one write (a
/// debounced effect); a failed write is retried with backoff and reported, and the tasks stay in
/// memory whatever happens.
struct SaveState: Equatable, Sendable {
    struct Settings: Equatable, Sendable {
        /// Seconds without a change before the board is written.
        var delay: TimeInterval = 0.25
        var maxAttempts = 4
        var retryPolicy = Effect.RetryPolicy(baseDelay: 0.5, multiplier: 2, maxDelay: 4)
    }

    struct FailedWrite: Equatable, Sendable {
        /// 0 for the first attempt.
        let attempt: Int
        let reason: String
        /// Whether another attempt follows.
        let willRetry: Bool
    }

    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    var settings: Settings
    var run = Effect.State()
    /// The last revision of the tasks that reached the disk.
    var savedRevision = 0
    /// The last write that failed, until a write succeeds.
    var lastFailure: FailedWrite?
    /// How many writes failed since the board was opened.
    var failureCount = 0

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// A change to save: (re)starts the delayed write, dropping a pending one.
    mutating func schedule() {
        run.restart(maxAttempts: settings.maxAttempts, delay: settings.delay, retryPolicy: settings.retryPolicy)
    }

    /// Writes now if anything is unsaved: for the end of a run.
    mutating func flush(revision: Int) {
        guard savedRevision < revision || run.isInProgress else { return }
        run.restart(maxAttempts: settings.maxAttempts, delay: 0, retryPolicy: settings.retryPolicy)
    }

    mutating func saved(revision: Int) {
        guard run.isInProgress else { return }
        savedRevision = max(savedRevision, revision)
        lastFailure = nil
        run.succeed()
    }

    mutating func failed(reason: String, permanent: Bool = false) {
        guard let attempt = run.currentAttempt else { return }
        failureCount += 1
        if permanent {
            run.fail(WriteError(description: reason))
        } else {
            run.retryOrFailWith(WriteError(description: reason))
        }
        lastFailure = FailedWrite(attempt: attempt, reason: reason, willRetry: run.isInProgress)
    }
}
