#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides which actions of a throttled kind pass: the first one, then the first one at least
/// `interval` seconds after the last one that passed (leading edge). The others are blocked.
struct ThrottleStateMachine: Sendable {
    let interval: TimeInterval
    private var lastPassed: TimeInterval?

    init(interval: TimeInterval) {
        precondition(interval >= 0, "Middleware.throttle needs a non-negative interval, got \(interval)")
        self.interval = interval
    }

    /// An action of the kind arrived at `now`; returns whether it passes.
    mutating func admit(at now: TimeInterval) -> Bool {
        if let lastPassed, now - lastPassed < interval {
            return false
        }
        lastPassed = now
        return true
    }
}
