import CanopyPersistence
import Synchronization

/// What the board's writer reported last (`PersistenceOptions.onEvent`), kept for `status` and for the
/// failures reported while no command waits for a write.
///
/// The writer retries a failed batch until it is stored, so a failure is reported once per run of
/// failures (its first attempt), and the write that ends it is reported too.
final class SaveEvents: Sendable {
    /// The last failed write, while no write has succeeded since.
    struct Failure: Equatable, Sendable {
        /// The cause, in words (``ErrorText/describe(_:)``).
        let reason: String
        /// Failures in a row, from 1.
        let attempt: Int
        /// Seconds until the next attempt.
        let retryAfter: Double
    }

    private struct State {
        var failure: Failure?
        var writes = 0
        var reporter: (@Sendable (PersistenceEvent, Failure?) -> Void)?
    }

    private let state = Mutex(State())

    /// The current run of failures, or `nil` when the last write succeeded (or none failed).
    var failure: Failure? { state.withLock { $0.failure } }

    /// How many batches were stored.
    var writes: Int { state.withLock { $0.writes } }

    /// Calls `reporter` with each later event, and the failure it leaves (`nil` after a write).
    func report(to reporter: @escaping @Sendable (PersistenceEvent, Failure?) -> Void) {
        state.withLock { $0.reporter = reporter }
    }

    /// Records `event`; `PersistenceOptions.onEvent` calls it on the tree's queue.
    func record(_ event: PersistenceEvent) {
        let (reporter, failure) = state.withLock { state in
            switch event {
            case .wrote:
                state.writes += 1
                state.failure = nil
            case .failed(_, let error, let attempt, let retryAfter):
                state.failure = Failure(reason: ErrorText.describe(error), attempt: attempt, retryAfter: retryAfter)
            case .conflicted:
                // Not a failure: the command that flushed reports it, and the board is reloaded.
                break
            case .dropped(_, let error, _, _):
                state.failure = Failure(reason: ErrorText.describe(error), attempt: 0, retryAfter: 0)
            }
            return (state.reporter, state.failure)
        }
        reporter?(event, failure)
    }
}
