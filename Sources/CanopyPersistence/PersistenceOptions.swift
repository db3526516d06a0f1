public import Canopy

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// When a writer registered with ``Canopy/StateStore/persist(_:to:options:)`` writes, how it retries,
/// and who hears about it.
///
/// Every delay runs on the store tree's clock, so a `ManualScheduler` drives them in tests.
public struct PersistenceOptions: Sendable {
    /// Seconds without a new change before the pending changes are written.
    public var debounce: TimeInterval
    /// The longest a change waits for its write under a steady stream of changes, in seconds.
    public var maxDelay: TimeInterval
    /// The delays before retrying a failed write. Retries go on while the tree lives: nothing is dropped.
    public var retryPolicy: Effect.RetryPolicy
    /// Called on the tree's queue after each write, failed write and, at shutdown, changes dropped.
    public var onEvent: (@Sendable (PersistenceEvent) -> Void)?
    /// The writer's name in events and errors; `nil` names it by its type.
    public var name: String?

    /// Creates options.
    ///
    /// - Parameters:
    ///   - debounce: Seconds without a new change before writing; zero or more.
    ///   - maxDelay: The longest a change waits under a steady stream of changes; at least `debounce`.
    ///   - retryPolicy: The delays before retrying a failed write.
    ///   - name: The writer's name in events and errors; `nil` names it by its type.
    ///   - onEvent: Hears about writes and failures, on the tree's queue.
    public init(
        debounce: TimeInterval = 0.1,
        maxDelay: TimeInterval = 1,
        retryPolicy: Effect.RetryPolicy = Effect.RetryPolicy(baseDelay: 0.1, multiplier: 2, maxDelay: 5),
        name: String? = nil,
        onEvent: (@Sendable (PersistenceEvent) -> Void)? = nil
    ) {
        precondition(
            debounce >= 0 && debounce.isFinite && maxDelay >= debounce && maxDelay.isFinite,
            "PersistenceOptions needs a finite debounce of zero or more and a finite maxDelay of at least the "
                + "debounce (got \(debounce) and \(maxDelay))"
        )
        self.debounce = debounce
        self.maxDelay = maxDelay
        self.retryPolicy = retryPolicy
        self.name = name
        self.onEvent = onEvent
    }
}
