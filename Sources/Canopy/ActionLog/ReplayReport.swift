/// What ``ActionLog/replay(into:timing:)`` did.
///
/// ```swift
/// let report = try await log.replay(into: targets)
/// if !report.notReduced.isEmpty { print("lines \(report.notReduced) were blocked this time") }
/// ```
public struct ReplayReport: Sendable, Equatable {
    /// The number of actions sent, all handled by the tree when the replay returned.
    public let replayed: Int

    /// The lines whose action the replayed tree did not reduce (a middleware blocked it or threw). The
    /// recorder sits at the end of the root's middleware, so what it records got through the root's
    /// chain; a child's middleware, which runs after it, may still have held an action back in the
    /// recorded run. A replay into a tree whose only middleware is at the root has none.
    public let notReduced: [Int]

    /// The log's ``ActionLog/truncation``: the last line, cut short and left out, if any.
    public let truncation: ActionLogError?

    /// Whether the replay stopped early because its task was cancelled.
    public let wasCancelled: Bool
}
