#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Effect {
    /// The lifecycle of a side effect, kept in the store's state: idle, in progress (with its attempt
    /// and retry delay), succeeded, failed or cancelled.
    ///
    /// Reducers move it through its states; an effect operator such as
    /// ``StateStore/effect(_:on:create:)`` watches it and starts, restarts or cancels the work. Each
    /// ``run(maxAttempts:delay:)`` or ``restart(maxAttempts:delay:)`` gives the value a new identity,
    /// and each retry a new attempt number; the store runs the effect once per identity and attempt.
    ///
    /// | from | call | result |
    /// |---|---|---|
    /// | not in progress | ``run(maxAttempts:delay:)`` | in progress, attempt 0, new identity |
    /// | in progress | ``run(maxAttempts:delay:)`` | unchanged |
    /// | any | ``restart(maxAttempts:delay:)`` | in progress, attempt 0, new identity |
    /// | in progress, attempts left | ``retryOrFailWith(_:)`` | next attempt, after the retry delay |
    /// | in progress, none left | ``retryOrFailWith(_:)`` | failed |
    /// | in progress | ``succeed()`` / ``cancel()`` | succeeded / cancelled |
    /// | any | ``fail(_:)`` | failed |
    /// | any | ``reset()`` | idle |
    ///
    /// Calls not in the table (``succeed()``, ``cancel()`` or ``retryOrFailWith(_:)`` when the effect
    /// is not in progress) change nothing, so a late result cannot overwrite a newer decision.
    ///
    /// ```swift
    /// struct Profile: Sendable {
    ///     var load = Effect.State()
    ///
    ///     mutating func reduce(_ action: ProfileAction) {
    ///         switch action {
    ///         case .open: load.run(maxAttempts: 3)
    ///         case .loaded: load.succeed()
    ///         case .loadFailed(let error): load.retryOrFailWith(error)
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// The value is `Codable`: a failed state keeps its error's description when encoded, and
    /// ``error`` gives back the original error value while the state stays in memory.
    public struct State: Hashable, Sendable {
        /// The identity of the current or last run; a fresh one for each run and restart, from the
        /// `effectRunIDs` dependency (``Effect/RunIDs``). `nil` when idle. A random UUID in the app
        /// rather than a counter, so values persisted by an earlier launch never collide with new runs.
        var runID: UUID?
        var phase: Phase

        init(runID: UUID?, phase: Phase) {
            self.runID = runID
            self.phase = phase
        }

        /// Creates an idle state.
        public init() {
            self.init(runID: nil, phase: .idle)
        }

        /// Returns an idle state.
        ///
        /// - Returns: A state that is neither running nor finished.
        public static func idle() -> State {
            State()
        }

        /// Returns a state that is in progress, at attempt 0, with a new identity.
        ///
        /// Retries wait 2, 4, 8… seconds; use ``running(maxAttempts:delay:retryPolicy:)`` to choose.
        ///
        /// - Parameters:
        ///   - maxAttempts: How many attempts ``retryOrFailWith(_:)`` allows in all; less than 1 counts
        ///     as 1.
        ///   - delay: Seconds to wait before the first attempt; zero or more.
        /// - Returns: The running state.
        public static func running(maxAttempts: Int = 1, delay: TimeInterval = .zero) -> State {
            running(maxAttempts: maxAttempts, delay: delay, retryPolicy: .exponential)
        }

        /// Returns a state that is in progress, at attempt 0, with a new identity, whose retries wait as
        /// `retryPolicy` says.
        ///
        /// - Parameters:
        ///   - maxAttempts: How many attempts ``retryOrFailWith(_:)`` allows in all; less than 1 counts
        ///     as 1.
        ///   - delay: Seconds to wait before the first attempt; zero or more.
        ///   - retryPolicy: The delays before retries.
        /// - Returns: The running state.
        public static func running(
            maxAttempts: Int = 1,
            delay: TimeInterval = .zero,
            retryPolicy: RetryPolicy
        ) -> State {
            var state = State()
            state.restart(maxAttempts: maxAttempts, delay: delay, retryPolicy: retryPolicy)
            return state
        }
    }
}

extension Effect.State {
    /// Where an ``Effect/State`` is in its lifecycle.
    public enum Status: Int, Codable, Hashable, Sendable {
        /// Not started, or reset.
        case idle
        /// Running, waiting for its delay, or waiting for a retry.
        case inProgress
        /// Finished with ``Effect/State/succeed()``.
        case success
        /// Finished with ``Effect/State/fail(_:)`` or out of attempts.
        case failure
        /// Stopped with ``Effect/State/cancel()``.
        case cancelled
    }

    enum Phase: Hashable, Sendable {
        case idle
        case inProgress(Attempt)
        case success
        case failure(Failure)
        case cancelled
    }

    /// One attempt of a run.
    struct Attempt: Hashable, Sendable {
        /// 0 for the first attempt.
        var index: Int
        /// At least 1.
        var maxAttempts: Int
        /// Seconds to wait before this attempt starts.
        var delay: TimeInterval
        var retryPolicy: Effect.RetryPolicy
    }

    /// The error of a failed state. Two failures are equal when their descriptions are, because the
    /// description is all that survives encoding.
    struct Failure: Hashable, Sendable {
        let description: String
        /// The caller's error, while in memory; `nil` after decoding.
        let error: (any Error)?

        init(_ error: (any Error)?) {
            if let error {
                self.description = Effect.ExecutionError.describe(error)
                self.error = error
            } else {
                let unknown = Effect.ExecutionError.unknown
                self.description = unknown.description
                self.error = unknown
            }
        }

        init(decodedDescription description: String) {
            self.description = description
            self.error = nil
        }

        static func == (lhs: Failure, rhs: Failure) -> Bool {
            lhs.description == rhs.description
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(description)
        }
    }

    // MARK: Queries

    /// Where the effect is in its lifecycle.
    public var status: Status {
        switch phase {
        case .idle: .idle
        case .inProgress: .inProgress
        case .success: .success
        case .failure: .failure
        case .cancelled: .cancelled
        }
    }

    /// Whether the effect has not started, or was reset.
    public var isIdle: Bool { status == .idle }

    /// Whether the effect is running, or waiting for its delay or a retry.
    public var isInProgress: Bool { status == .inProgress }

    /// Whether the effect succeeded.
    public var isSuccess: Bool { status == .success }

    /// Whether the effect failed.
    public var isFailed: Bool { status == .failure }

    /// Whether the effect was cancelled.
    public var isCancelled: Bool { status == .cancelled }

    /// The error the effect failed with, or `nil` when it has not failed.
    ///
    /// While the state is in memory this is the error value given to ``fail(_:)`` or
    /// ``retryOrFailWith(_:)``, so `state.error as? MyError` works. A state decoded from storage, or
    /// failed with `nil`, gives an ``Effect/ExecutionError`` carrying the description.
    public var error: (any Error)? {
        guard case .failure(let failure) = phase else { return nil }
        return failure.error ?? Effect.ExecutionError(description: failure.description)
    }

    /// The current attempt, 0 for the first, or `nil` when the effect is not in progress.
    public var currentAttempt: Int? {
        guard case .inProgress(let attempt) = phase else { return nil }
        return attempt.index
    }

    /// Seconds to wait before the current attempt starts, or `nil` when the effect is not in progress.
    ///
    /// For attempt 0 this is the delay given to ``run(maxAttempts:delay:)``; for a retry, the retry
    /// policy's delay.
    public var delay: TimeInterval? {
        guard case .inProgress(let attempt) = phase else { return nil }
        return attempt.delay
    }

    /// The policy for delays before retries, or `nil` when the effect is not in progress.
    public var retryPolicy: Effect.RetryPolicy? {
        guard case .inProgress(let attempt) = phase else { return nil }
        return attempt.retryPolicy
    }

    // MARK: Transitions

    /// Starts the effect unless it is already in progress.
    ///
    /// From any other status, the state becomes in progress at attempt 0 with a new identity, so the
    /// store starts the effect. While in progress, nothing changes and nothing starts again.
    ///
    /// - Parameters:
    ///   - maxAttempts: How many attempts ``retryOrFailWith(_:)`` allows in all; less than 1 counts
    ///     as 1.
    ///   - delay: Seconds to wait before the first attempt; zero or more.
    public mutating func run(maxAttempts: Int = 1, delay: TimeInterval = .zero) {
        run(maxAttempts: maxAttempts, delay: delay, retryPolicy: .exponential)
    }

    /// Starts the effect unless it is already in progress, with retries that wait as `retryPolicy`
    /// says.
    ///
    /// - Parameters:
    ///   - maxAttempts: How many attempts ``retryOrFailWith(_:)`` allows in all; less than 1 counts
    ///     as 1.
    ///   - delay: Seconds to wait before the first attempt; zero or more.
    ///   - retryPolicy: The delays before retries.
    public mutating func run(maxAttempts: Int = 1, delay: TimeInterval = .zero, retryPolicy: Effect.RetryPolicy) {
        guard !isInProgress else { return }
        restart(maxAttempts: maxAttempts, delay: delay, retryPolicy: retryPolicy)
    }

    /// Starts the effect again from attempt 0 with a new identity, whatever its status.
    ///
    /// If the effect was in progress, the store cancels the running attempt and starts a new one;
    /// results the old attempt sends afterwards are dropped.
    ///
    /// - Parameters:
    ///   - maxAttempts: How many attempts ``retryOrFailWith(_:)`` allows in all; less than 1 counts
    ///     as 1.
    ///   - delay: Seconds to wait before the first attempt; zero or more.
    public mutating func restart(maxAttempts: Int = 1, delay: TimeInterval = .zero) {
        restart(maxAttempts: maxAttempts, delay: delay, retryPolicy: .exponential)
    }

    /// Starts the effect again from attempt 0 with a new identity, with retries that wait as
    /// `retryPolicy` says.
    ///
    /// - Parameters:
    ///   - maxAttempts: How many attempts ``retryOrFailWith(_:)`` allows in all; less than 1 counts
    ///     as 1.
    ///   - delay: Seconds to wait before the first attempt; zero or more.
    ///   - retryPolicy: The delays before retries.
    public mutating func restart(
        maxAttempts: Int = 1,
        delay: TimeInterval = .zero,
        retryPolicy: Effect.RetryPolicy
    ) {
        precondition(
            delay.isFinite && delay >= 0,
            "Effect.State.run/restart(maxAttempts:delay:) needs a finite, non-negative delay, got \(delay)"
        )
        runID = Dependency[\.effectRunIDs].next()
        phase = .inProgress(
            Attempt(index: 0, maxAttempts: max(maxAttempts, 1), delay: delay, retryPolicy: retryPolicy)
        )
    }

    /// Moves to the next attempt if any is left, or fails with `error`.
    ///
    /// The next attempt waits the retry policy's delay (2, 4, 8… seconds by default), which ``delay``
    /// reports and the store honours. Does nothing unless the effect is in progress, so a stale
    /// failure cannot use up an attempt of a newer run.
    ///
    /// - Parameter error: Why the attempt failed; `nil` records an unknown error.
    public mutating func retryOrFailWith(_ error: (any Error)?) {
        guard case .inProgress(var attempt) = phase else { return }
        guard attempt.index + 1 < attempt.maxAttempts else {
            phase = .failure(Failure(error))
            return
        }
        attempt.index += 1
        attempt.delay = attempt.retryPolicy.delay(beforeRetry: attempt.index, seed: jitterSeed)
        phase = .inProgress(attempt)
    }

    /// Marks the effect as succeeded. Does nothing unless it is in progress.
    public mutating func succeed() {
        guard isInProgress else { return }
        phase = .success
    }

    /// Marks the effect as cancelled, which makes the store cancel the running attempt. Does nothing
    /// unless it is in progress.
    public mutating func cancel() {
        guard isInProgress else { return }
        phase = .cancelled
    }

    /// Marks the effect as failed with `error`, whatever its status.
    ///
    /// - Parameter error: Why the effect failed; `nil` records an error described as
    ///   "Unknown effect execution error".
    public mutating func fail(_ error: (any Error)?) {
        phase = .failure(Failure(error))
    }

    /// Returns the effect to idle, whatever its status, cancelling a running attempt.
    public mutating func reset() {
        runID = nil
        phase = .idle
    }

    /// Mixes the run identity into one number for the retry policy's jitter.
    private var jitterSeed: UInt64 {
        guard let runID else { return 0 }
        return withUnsafeBytes(of: runID.uuid) { bytes in
            bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)
                ^ bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
        }
    }
}
