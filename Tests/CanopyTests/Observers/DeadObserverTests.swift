import Dispatch
import Testing

@testable import Canopy

/// Observers that answer `.dead` are removed, however many go at once.
@Suite(.timeLimit(.minutes(1))) struct DeadObserverTests {
    @Test func everyObserverThatAnswersDeadIsRemovedEvenWhenTheListCompacts() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let calls = StateRecorder<Int>()
        for index in 0..<10 {
            root.subscribe(
                observer: Observer { state in
                    if state >= 1 { calls.record(index) }
                    // Slots 0–5 and 7 stop after the second state.
                    return state >= 1 && (index <= 5 || index == 7) ? .dead : .active
                }
            )
        }
        await root.send(1)
        await root.send(1)
        let second = calls.values.suffix(from: 10)
        #expect(Set(second) == [6, 8, 9])
    }
}
