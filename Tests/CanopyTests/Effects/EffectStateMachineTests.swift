import Testing

@testable import Canopy

private typealias Machine = EffectStateMachine<String>

private func requests(_ keys: String..., delay: Double = 0) -> [EffectRequest<String>] {
    keys.map { EffectRequest(key: $0, delay: delay) }
}

@Suite(.timeLimit(.minutes(1))) struct EffectStateMachineTests {
    @Test func nothingRequestedDoesNothing() {
        var machine = Machine()
        #expect(machine.requestsChanged(to: requests()).isEmpty)
        #expect(machine.isEmpty)
    }

    @Test func aNewKeyStartsOnceWithItsDelay() {
        var machine = Machine()
        #expect(machine.requestsChanged(to: requests("a", delay: 3)) == [.start("a", delay: 3)])
        #expect(machine.requestsChanged(to: requests("a", delay: 3)).isEmpty)
        #expect(machine.requestsChanged(to: requests("a", delay: 3)).isEmpty)
    }

    @Test func aKeyNoLongerRequestedIsCancelledOnce() {
        var machine = Machine()
        _ = machine.requestsChanged(to: requests("a"))
        #expect(machine.requestsChanged(to: requests()) == [.cancel("a")])
        #expect(machine.requestsChanged(to: requests()).isEmpty)
        #expect(machine.isEmpty)
    }

    @Test func aReplacedKeyIsCancelledBeforeTheNewOneStarts() {
        var machine = Machine()
        _ = machine.requestsChanged(to: requests("attempt 0"))
        #expect(
            machine.requestsChanged(to: requests("attempt 1")) == [.cancel("attempt 0"), .start("attempt 1", delay: 0)]
        )
    }

    @Test func aKeyRequestedAgainAfterItsCancellationStartsAgain() {
        var machine = Machine()
        _ = machine.requestsChanged(to: requests("a"))
        _ = machine.requestsChanged(to: requests())
        #expect(machine.requestsChanged(to: requests("a")) == [.start("a", delay: 0)])
    }

    @Test func keysRunIndependently() {
        var machine = Machine()
        #expect(machine.requestsChanged(to: requests("a", "b")) == [.start("a", delay: 0), .start("b", delay: 0)])
        #expect(machine.requestsChanged(to: requests("b", "c")) == [.cancel("a"), .start("c", delay: 0)])
        #expect(machine.requestsChanged(to: requests("c")) == [.cancel("b")])
    }

    @Test func cancellationsComeInStartOrder() {
        var machine = Machine()
        let keys = (0..<20).map { "key \($0)" }
        _ = machine.requestsChanged(to: keys.map { EffectRequest(key: $0, delay: 0) })
        #expect(machine.requestsChanged(to: requests()) == keys.map { .cancel($0) })
    }

    @Test func manyRequestsAreComparedBySet() {
        var machine = Machine()
        let keys = (0..<20).map { "key \($0)" }
        _ = machine.requestsChanged(to: keys.map { EffectRequest(key: $0, delay: 0) })
        let fewer = keys.dropFirst().map { EffectRequest(key: $0, delay: 0) }
        #expect(machine.requestsChanged(to: fewer) == [.cancel("key 0")])
    }

    @Test func equalRequestsStartOnce() {
        var machine = Machine()
        #expect(machine.requestsChanged(to: requests("a", "a")) == [.start("a", delay: 0)])
    }

    @Test func aPostponedKeyIsAskedAgainOnTheNextState() {
        var machine = Machine()
        _ = machine.requestsChanged(to: requests("a", delay: 2))
        machine.postponed("a")
        #expect(machine.requestsChanged(to: requests("a", delay: 2)) == [.start("a", delay: 2)])
        #expect(machine.requestsChanged(to: requests("a", delay: 2)).isEmpty)
    }

    @Test func aPostponedKeyThatLeavesIsForgottenWithoutCancelling() {
        var machine = Machine()
        _ = machine.requestsChanged(to: requests("a"))
        machine.postponed("a")
        #expect(machine.requestsChanged(to: requests()).isEmpty)
        #expect(machine.isEmpty)
    }

    @Test func postponingAnUnknownKeyDoesNothing() {
        var machine = Machine()
        machine.postponed("a")
        #expect(machine.isEmpty)
        #expect(machine.requestsChanged(to: requests("a")) == [.start("a", delay: 0)])
    }
}
