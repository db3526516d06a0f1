/// How fast ``ActionLog/replay(into:timing:)`` sends the recorded actions.
///
/// ```swift
/// let clock = ManualScheduler()
/// let replay = Task { try await log.replay(into: targets, timing: .recorded(on: clock)) }
/// clock.advance(by: 5)  // the actions recorded in the first five seconds are sent
/// ```
public enum ReplayTiming: Sendable {
    /// Each action as soon as the one before it was handled.
    case immediate

    /// Each action when `clock` has moved on from the start of the replay by as much as the recording
    /// tree's clock had moved on from the first action: the recorded gaps, on the replayed tree's clock
    /// (pass the tree's ``ManualScheduler`` in tests, or a ``DispatchDelayScheduler`` for real time).
    /// An action is never sent before the one before it was handled.
    case recorded(on: any DelayScheduler)
}
