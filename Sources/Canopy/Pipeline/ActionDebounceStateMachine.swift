#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides what a debounce middleware releases: each action of the kind replaces the one held and
/// restarts the quiet time; when a quiet time ends without a newer action, the held action is released.
///
/// The owner schedules a timer for each ``received(_:)`` (cancelling the one before) and calls
/// ``quietTimeEnded(generation:)`` when it fires; a timer that was superseded releases nothing, even if
/// its cancellation came too late to stop it.
struct ActionDebounceStateMachine<Action> {
    let interval: TimeInterval
    private var generation: UInt64 = 0
    private var held: Action?

    init(interval: TimeInterval) {
        precondition(interval >= 0, "Middleware.debounce needs a non-negative interval, got \(interval)")
        self.interval = interval
    }

    /// An action of the kind arrived: it is held in place of any earlier one.
    ///
    /// - Returns: The generation the new timer must report, and whether an earlier action was replaced
    ///   (its timer should be cancelled).
    mutating func received(_ action: Action) -> (generation: UInt64, replaced: Bool) {
        let replaced = held != nil
        generation &+= 1
        held = action
        return (generation, replaced)
    }

    /// The timer of `generation` fired; returns the action to release, if that timer is still the latest.
    mutating func quietTimeEnded(generation: UInt64) -> Action? {
        guard generation == self.generation else { return nil }
        defer { held = nil }
        return held
    }

    /// Whether an action is held.
    var isHolding: Bool {
        held != nil
    }
}

extension ActionDebounceStateMachine: Sendable where Action: Sendable {}
