import Testing

@testable import Canopy

private func keys<Trigger: EffectTrigger>(_ trigger: inout Trigger, _ states: [Trigger.State]) -> [[Trigger.Key]] {
    states.map { state in trigger.requests(for: state).map(\.key) }
}

@Suite(.timeLimit(.minutes(1))) struct EffectTriggerTests {
    @Test func attemptTriggerRequestsTheInProgressValueWithItsDelay() {
        let trigger = AttemptTrigger<Effect.State> { $0 }
        let running = Effect.State.running(delay: 4)
        #expect(Array(trigger.requests(for: running)) == [EffectRequest(key: running, delay: 4)])
        #expect(trigger.requests(for: .idle()).isEmpty)
        var finished = running
        finished.succeed()
        #expect(trigger.requests(for: finished).isEmpty)
    }

    @Test func collectionTriggerRequestsEachInProgressElement() {
        let trigger = CollectionTrigger<[Effect.State], [Effect.State]> { $0 }
        let first = Effect.State.running()
        let second = Effect.State.running(delay: 1)
        var done = Effect.State.running()
        done.succeed()
        let requests = trigger.requests(for: [first, .idle(), done, second])
        #expect(requests == [EffectRequest(key: first, delay: 0), EffectRequest(key: second, delay: 1)])
    }

    @Test func toggleTriggerStartsOnEachSwitchOn() {
        var trigger = ToggleTrigger<Bool> { $0 }
        #expect(keys(&trigger, [true, true, false, false, true, true]) == [[1], [1], [], [], [2], [2]])
    }

    @Test func toggleTriggerStartingOffWaitsForTrue() {
        var trigger = ToggleTrigger<Bool> { $0 }
        #expect(keys(&trigger, [false, true]) == [[], [1]])
    }

    @Test func changeTriggerSkipsTheFirstValueAndCountsChanges() {
        var trigger = ChangeTrigger<String, String> { $0 }
        #expect(keys(&trigger, ["a", "a", "b", "b", "c", "a"]) == [[], [], [1], [1], [2], [3]])
    }

    @Test func changeTriggerHandlesOptionalValues() {
        var trigger = ChangeTrigger<Int?, Int?> { $0 }
        #expect(keys(&trigger, [nil, nil, 1, nil]) == [[], [], [1], [2]])
    }
}
