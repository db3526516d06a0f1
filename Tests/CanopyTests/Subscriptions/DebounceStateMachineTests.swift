import Foundation
import Testing

@testable import Canopy

/// The machine with the states kept beside it by its rule, as the subscriber pipeline keeps them
/// (``DebounceStateMachine``): a delivery asked for by `receive` is of the value received, one asked for
/// by `timerFired` of the pending value, and a received value not delivered becomes the pending one.
/// Each call checks that the machine's `hasPending` agrees with the value kept.
private struct Machine {
    enum Decision: Equatable {
        case wait
        case deliver(Int)
        case startTimer(after: TimeInterval)
        case deliverAndStartTimer(Int, after: TimeInterval)
    }

    private var machine: DebounceStateMachine
    private var pending: Int?

    init(policy: DebouncePolicy) {
        machine = DebounceStateMachine(policy: policy)
    }

    var hasPending: Bool { machine.hasPending }

    mutating func receive(_ value: Int, now: TimeInterval) -> Decision {
        let decision = machine.receive(now: now)
        pending = decision.delivers ? nil : value
        return kept(decision, delivering: value)
    }

    mutating func timerFired(now: TimeInterval) -> Decision {
        let decision = machine.timerFired(now: now)
        let delivered = decision.delivers ? pending.take() : nil
        return kept(decision, delivering: delivered)
    }

    private func kept(_ decision: DebounceStateMachine.Decision, delivering value: Int?) -> Decision {
        #expect(machine.hasPending == (pending != nil), "the machine and the value kept disagree")
        switch decision {
        case .wait: return .wait
        case .startTimer(let delay): return .startTimer(after: delay)
        case .deliver:
            guard let value else { return unexpected(decision) }
            return .deliver(value)
        case .deliverAndStartTimer(let delay):
            guard let value else { return unexpected(decision) }
            return .deliverAndStartTimer(value, after: delay)
        }
    }

    private func unexpected(_ decision: DebounceStateMachine.Decision) -> Decision {
        Issue.record("\(decision) with no value pending")
        return .wait
    }
}

@Suite(.timeLimit(.minutes(1))) struct DebounceStateMachineTests {
    @Test func immediateDeliversEveryValueWithoutATimer() {
        var machine = Machine(policy: .immediate)
        #expect(machine.receive(1, now: 0) == .deliver(1))
        #expect(machine.receive(2, now: 0) == .deliver(2))
        #expect(machine.timerFired(now: 0) == .wait)
    }

    @Test func trailingBurstAsksForOneTimerAndDeliversTheLastValue() {
        var machine = Machine(policy: .debounce(for: 1))
        #expect(machine.receive(1, now: 0) == .startTimer(after: 1))
        #expect(machine.receive(2, now: 0.25) == .wait)
        #expect(machine.receive(3, now: 0.5) == .wait)
        // The timer fires at 1, but the last value asked for quiet until 1.5.
        #expect(machine.timerFired(now: 1) == .startTimer(after: 0.5))
        #expect(machine.timerFired(now: 1.5) == .deliver(3))
        #expect(!machine.hasPending)
    }

    @Test func trailingStartsAFreshWindowAfterDelivering() {
        var machine = Machine(policy: .debounce(for: 1))
        _ = machine.receive(1, now: 0)
        #expect(machine.timerFired(now: 1) == .deliver(1))
        #expect(machine.receive(2, now: 5) == .startTimer(after: 1))
        #expect(machine.timerFired(now: 6) == .deliver(2))
    }

    @Test func trailingDeliversOnATimerArmedForTheDeadlineEvenIfTheClockReadsEarly() {
        var machine = Machine(policy: .debounce(for: 0.007))
        #expect(machine.receive(1, now: 0.1) == .startTimer(after: 0.007))
        #expect(machine.timerFired(now: 0.1 + 0.006_999_999) == .deliver(1))
    }

    @Test func rearmedTimerNeverLandsAfterTheDeadline() {
        var machine = Machine(policy: .debounce(for: 0.1))
        #expect(machine.receive(1, now: 0.1) == .startTimer(after: 0.1))
        #expect(machine.receive(2, now: 0.15) == .wait)
        let now = 0.1 + 0.1
        guard case .startTimer(let delay) = machine.timerFired(now: now) else {
            Issue.record("expected the timer to be restarted")
            return
        }
        #expect(now + delay <= 0.15 + 0.1)
        #expect(machine.timerFired(now: now + delay) == .deliver(2))
    }

    @Test func staleTimerDoesNothing() {
        var machine = Machine(policy: .debounce(for: 1))
        #expect(machine.timerFired(now: 3) == .wait)
        var throttle = Machine(policy: .throttle(for: 1))
        #expect(throttle.timerFired(now: 3) == .wait)
    }

    @Test func maxWaitDeliversUnderASteadyStream() {
        var machine = Machine(policy: .debounce(for: 0.25, maxWait: 1))
        var delivered: [(value: Int, at: Double)] = []
        var timerDue: Double?
        // A value every 0.125 s for 4 s: the stream never pauses for 0.25 s.
        for step in 0...32 {
            let now = Double(step) * 0.125
            if let due = timerDue, due <= now {
                timerDue = nil
                record(machine.timerFired(now: due), at: due)
            }
            record(machine.receive(step, now: now), at: now)
        }

        func record(_ decision: Machine.Decision, at now: Double) {
            switch decision {
            case .wait: break
            case .deliver(let value): delivered.append((value, now))
            case .startTimer(let delay): timerDue = now + delay
            case .deliverAndStartTimer(let value, let delay):
                delivered.append((value, now))
                timerDue = now + delay
            }
        }

        #expect(delivered.map(\.value) == [7, 15, 23, 31])
        #expect(delivered.map(\.at) == [1, 2, 3, 4])
    }

    @Test func pureTrailingDebounceDeliversNothingUnderASteadyStream() {
        var machine = Machine(policy: .trailing(for: 0.25))
        var timerDue: Double?
        for step in 0...32 {
            let now = Double(step) * 0.125
            if let due = timerDue, due <= now {
                timerDue = nil
                switch machine.timerFired(now: due) {
                case .startTimer(let delay): timerDue = due + delay
                case let other: Issue.record("unexpected \(other)")
                }
            }
            if case .startTimer(let delay) = machine.receive(step, now: now) {
                timerDue = now + delay
            }
        }
        #expect(machine.hasPending)
    }

    @Test func maxWaitShorterThanTheIntervalCapsTheFirstWait() {
        var machine = Machine(policy: .debounce(for: 1, maxWait: 0.5))
        #expect(machine.receive(1, now: 0) == .startTimer(after: 0.5))
        #expect(machine.timerFired(now: 0.5) == .deliver(1))
    }

    @Test func throttleDeliversTheFirstValueAtOnceAndTheLastAtTheEndOfTheInterval() {
        var machine = Machine(policy: .throttle(for: 1))
        #expect(machine.receive(1, now: 0) == .deliverAndStartTimer(1, after: 1))
        #expect(machine.receive(2, now: 0.25) == .wait)
        #expect(machine.receive(3, now: 0.5) == .wait)
        #expect(machine.timerFired(now: 1) == .deliverAndStartTimer(3, after: 1))
        // Nothing arrived in the second interval: it closes, and the next value goes out at once.
        #expect(machine.timerFired(now: 2) == .wait)
        #expect(machine.receive(4, now: 2.5) == .deliverAndStartTimer(4, after: 1))
    }

    @Test func throttleDeliversAtMostOncePerInterval() {
        var machine = Machine(policy: .throttle(for: 1))
        var deliveries: [Double] = []
        var timerDue: Double?
        for step in 0...40 {
            let now = Double(step) * 0.125
            if let due = timerDue, due <= now {
                timerDue = nil
                if case .deliverAndStartTimer(_, let delay) = machine.timerFired(now: due) {
                    deliveries.append(due)
                    timerDue = due + delay
                }
            }
            switch machine.receive(step, now: now) {
            case .deliverAndStartTimer(_, let delay):
                deliveries.append(now)
                timerDue = now + delay
            case .wait: break
            case let other: Issue.record("unexpected \(other)")
            }
        }
        #expect(deliveries == [0, 1, 2, 3, 4, 5])
    }
}
