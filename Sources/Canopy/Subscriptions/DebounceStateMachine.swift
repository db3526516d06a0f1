#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides, for one subscription, whether an accepted state is delivered now or waits.
///
/// The machine is fed on the store's queue: ``receive(_:now:)`` for each state that passed dedup, and
/// ``timerFired(now:)`` when the timer it asked for goes off. Each call returns what the owner must do;
/// the machine itself never reads a clock, starts a timer or hops a queue. It asks for at most one
/// timer at a time: a ``Decision/startTimer(after:)`` replaces the timer asked for before.
///
/// Trailing debounce keeps one timer per burst instead of one per state: a state that arrives while
/// the timer is armed only moves the deadline, and when the timer fires early it asks for the rest of
/// the wait.
struct DebounceStateMachine<Value> {
    /// What the owner must do after a call.
    enum Decision {
        /// Nothing now.
        case wait
        /// Compute props for the value and deliver them.
        case deliver(Value)
        /// (Re)start the single timer so that it fires after the given number of seconds.
        case startTimer(after: TimeInterval)
        /// Deliver the value, then (re)start the timer.
        case deliverAndStartTimer(Value, after: TimeInterval)
    }

    let policy: DebouncePolicy

    /// The latest accepted value not delivered yet.
    private var pending: Value?
    /// When `pending` started waiting (for `maxWait`).
    private var pendingSince: TimeInterval = 0
    /// When `pending` is due (trailing debounce).
    private var deadline: TimeInterval = 0
    /// When the armed timer fires, or `nil` when no timer is armed. For throttle: the end of the open
    /// interval.
    private var timerDeadline: TimeInterval?

    init(policy: DebouncePolicy) {
        self.policy = policy
    }

    /// Whether a value is waiting to be delivered.
    var hasPending: Bool {
        pending != nil
    }

    /// A state passed dedup at time `now`.
    mutating func receive(_ value: Value, now: TimeInterval) -> Decision {
        switch policy.mode {
        case .immediate:
            return .deliver(value)

        case .trailing(let interval, let maxWait):
            let wait: TimeInterval
            if pending == nil {
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
            pending = value
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
                pending = value
                return .wait
            }
            timerDeadline = now + interval
            return .deliverAndStartTimer(value, after: interval)
        }
    }

    /// The timer asked for by the last ``Decision/startTimer(after:)`` or
    /// ``Decision/deliverAndStartTimer(_:after:)`` went off at time `now`.
    mutating func timerFired(now: TimeInterval) -> Decision {
        guard let armed = timerDeadline else { return .wait }
        timerDeadline = nil
        switch policy.mode {
        case .immediate:
            return .wait

        case .trailing:
            guard pending != nil else { return .wait }
            // Compare with the deadline the timer was armed for, not only with `now`: a timer armed for
            // the current deadline is due even if the clock reads a hair earlier.
            if deadline <= armed || deadline <= now {
                return takePending()
            }
            timerDeadline = deadline
            return .startTimer(after: Self.delay(until: deadline, from: now))

        case .throttle(let interval):
            guard let value = pending else {
                // Nothing arrived during the interval: it closes, and the next state goes out at once.
                return .wait
            }
            pending = nil
            timerDeadline = now + interval
            return .deliverAndStartTimer(value, after: interval)
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
        guard let value = pending else { return .wait }
        pending = nil
        return .deliver(value)
    }
}

extension DebounceStateMachine.Decision: Equatable where Value: Equatable {}
