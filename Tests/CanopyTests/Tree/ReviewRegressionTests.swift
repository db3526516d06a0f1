import Dispatch
import Testing

@testable import Canopy

/// Cases a review of the engine found, each failing before its fix.
@Suite(.timeLimit(.minutes(1))) struct ReviewRegressionTests {
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

    @Test func aRootMiddlewaresDispatchAndDebounceGoToTheNodeTheActionWasSentTo() async {
        let scheduler = ManualScheduler()
        let rootSeen = StateRecorder<String>()
        let root = StateStore<[String], String>(
            [],
            scheduler: scheduler,
            middlewares: [
                Middleware("log") { action, context in
                    rootSeen.record(action)
                    context.next(action)
                },
                Middleware("echo") { action, context in
                    if action == "ping" { context.dispatch("pong") }
                    context.next(action)
                },
                .debounce({ $0.hasPrefix("type") }, for: 1),
            ],
            reducer: { state, action in state.append(action) }
        )
        let child = root.with([String]()) { local, action in local.append(action) }
        await child.send("ping")
        await child.send("type a")
        await child.send("type ab")
        scheduler.advance(by: 1)
        let state = await child.state
        #expect(state.1 == ["ping", "pong", "type ab"])
        // The log middleware saw the resumed action once, when it was sent, not again on release.
        #expect(rootSeen.values == ["ping", "pong", "type a", "type ab"])
    }

    // SPEC 2.1: a weak handle accepted the action while its store lived, so the action is reduced, and
    // its completion says so, even though the store went before the action's turn.
    @Test func aCompletionThroughAWeakHandleWhoseStoreGoesBeforeItsTurnReportsTheReducedState() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { local, action in local += action }
        let weak = child!.weakStore()
        let outcome = StateRecorder<Int>()
        root.queue.suspend()  // the action waits in the inbox while the child goes
        weak.dispatch(1) { result in
            if case .reduced(let state) = result { outcome.record(state.0) }
        }
        child = nil
        root.queue.resume()
        #expect(await outcome.waitFor(count: 1) == [1])
        #expect(await root.state == 1)
    }
}
