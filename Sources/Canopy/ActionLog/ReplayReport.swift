/// What ``ActionLog/replay(into:timing:)`` did.
///
/// ```swift
/// let report = try await log.replay(into: targets)
/// if !report.notReduced.isEmpty { print("lines \(report.notReduced) were blocked this time") }
/// ```
public struct ReplayReport: Sendable, Equatable {
    /// The number of actions sent, all handled by the tree when the replay returned.
    public let replayed: Int

    /// The lines whose action the replayed tree did not reduce (a middleware blocked it or threw). A
    /// faithful replay has none: each recorded action had got through the root's middleware.
    public let notReduced: [Int]

    /// The log's ``ActionLog/truncation``: the last line, cut short and left out, if any.
    public let truncation: ActionLogError?

    /// Whether the replay stopped early because its task was cancelled.
    public let wasCancelled: Bool
}
