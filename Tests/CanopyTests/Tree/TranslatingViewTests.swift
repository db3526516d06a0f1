import Dispatch
import Testing

@testable import Canopy

/// Actions that cross a `map(actions:)` view on their way up: reduced once, and nothing of their walk
/// left behind.
@Suite(.timeLimit(.minutes(1))) struct TranslatingViewTests {
    @Test func anActionThroughATranslatingViewNobodyListensToLeavesNoPathBehind() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(0) { local, action in local += action }
        let view = child.map(actions: { (action: String) in Int(action) ?? 0 })
        let grandchild = view.with("") { text, action in text += action }
        await grandchild.send("1")  // nobody listens: the walk up crosses the translation
        let seen = StateRecorder<Int>()
        child.subscribe(
            observer: Observer { state in
                seen.record(state.1)
                return .active
            }
        )
        await child.send(0)  // leaves the child state as it was
        #expect(seen.values == [1, 1])
    }

    @Test func anActionDispatchedToAChildOfATranslatingViewIsReduced() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let view = root.map(actions: { (action: String) in Int(action) ?? 0 })
        let child = view.with("") { text, action in text += action }
        child.dispatch("2")  // no completion: the work item must still process it
        child.dispatch("3")
        let state = await child.state
        #expect(state.1 == "23")
        #expect(state.0 == 5)
    }
}
