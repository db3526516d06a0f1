#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides, for one subscription, whether an accepted state is delivered now or waits.
///
/// The machine is fed on the store's queue: ``receive(now:)`` for each state that passed dedup, and
/// ``timerFired(now:)`` when the timer it asked for goes off. Each call returns what the owner must do;
/// the machine itself never reads a clock, starts a timer or hops a queue. It asks for at most one
/// timer at a time: a ``Decision/startTimer(after:)`` replaces the timer asked for before.
///
/// The machine keeps no state, only whether one is pending: the owner keeps the states, by one rule. A
/// delivery that ``receive(now:)`` asks for is of the state just received; one that
/// ``timerFired(now:)`` asks for is of the pending state, which is then no longer pending; and a
/// received state that is not delivered becomes the pending one, in place of any before it. So the
/// machine is one type for every subscription, whatever its state: code generic over the state, as the
/// subscriber pipeline is, would otherwise look up the machine's type, and its decision's, by hashing,
/// for each state.
///
/// Trailing debounce keeps one timer per burst instead of one per state: a state that arrives while
/// the timer is armed only moves the deadline, and when the timer fires early it asks for the rest of
/// the wait.
struct DebounceStateMachine: Sendable {
    /// What the owner must do after a call.
    enum Decision: Equatable, Sendable {
        /// Nothing now.
        case wait
        /// Compute props for the state (the one received, or the pending one on a timer) and deliver
        /// them.
        case deliver
        /// (Re)start the single timer so that it fires after the given number of seconds.
        case startTimer(after: TimeInterval)
        /// Deliver the state, then (re)start the timer.
        case deliverAndStartTimer(after: TimeInterval)

        /// Whether the owner delivers a state.
        var delivers: Bool {
            switch self {
            case .deliver, .deliverAndStartTimer: true
            case .wait, .startTimer: false
            }
        }
    }

    let policy: DebouncePolicy

    /// Whether an accepted state waits to be delivered: the owner keeps it.
    private(set) var hasPending = false
    /// When the pending state started waiting (for `maxWait`).
    private var pendingSince: TimeInterval = 0
    /// When the pending state is due (trailing debounce).
    private var deadline: TimeInterval = 0
    /// When the armed timer fires, or `nil` when no timer is armed. For throttle: the end of the open
    /// interval.
    private var timerDeadline: TimeInterval?

    init(policy: DebouncePolicy) {
        self.policy = policy
    }

    /// A state passed dedup at time `now`.
    mutating func receive(now: TimeInterval) -> Decision {
        switch policy.mode {
        case .immediate:
            return .deliver

        case .trailing(let interval, let maxWait):
            let wait: TimeInterval
            if !hasPending {
                pendingSince = now
                wait = min(interval, maxWait ?? interval)
                deadline = now + wait
            } else {
                deadline = now + interval
                if let maxWait {
                    deadline = min(deadline, pendingSince + maxWait)
                }
                wait = Self.delay(until: deadline, from: now)
            }
            hasPending = true
            if deadline <= now {
                return takePending()
            }
            if let armed = timerDeadline, armed <= deadline {
                // The armed timer fires first and asks for the rest of the wait then.
                return .wait
            }
            timerDeadline = deadline
            return .startTimer(after: wait)

        case .throttle(let interval):
            if timerDeadline != nil {
                hasPending = true
                return .wait
            }
            timerDeadline = now + interval
            return .deliverAndStartTimer(after: interval)
        }
    }

    /// The timer asked for by the last ``Decision/startTimer(after:)`` or
    /// ``Decision/deliverAndStartTimer(after:)`` went off at time `now`.
    mutating func timerFired(now: TimeInterval) -> Decision {
        guard let armed = timerDeadline else { return .wait }
        timerDeadline = nil
        switch policy.mode {
        case .immediate:
            return .wait

        case .trailing:
            guard hasPending else { return .wait }
            // Compare with the deadline the timer was armed for, not only with `now`: a timer armed for
            // the current deadline is due even if the clock reads a hair earlier.
            if deadline <= armed || deadline <= now {
                return takePending()
            }
            timerDeadline = deadline
            return .startTimer(after: Self.delay(until: deadline, from: now))

        case .throttle(let interval):
            guard hasPending else {
                // Nothing arrived during the interval: it closes, and the next state goes out at once.
                return .wait
            }
            hasPending = false
            timerDeadline = now + interval
            return .deliverAndStartTimer(after: interval)
        }
    }

    /// The delay from `now` to `deadline`, rounded down so that a clock computing `now + delay` never
    /// lands after `deadline`. The timer is then due by the deadline, and ``timerFired(now:)`` delivers
    /// because it compares with the deadline it armed for.
    private static func delay(until deadline: TimeInterval, from now: TimeInterval) -> TimeInterval {
        var delay = deadline - now
        while delay > 0, now + delay > deadline {
            delay = delay.nextDown
        }
        return max(delay, 0)
    }

    private mutating func takePending() -> Decision {
        guard hasPending else { return .wait }
        hasPending = false
        return .deliver
    }
}
