import Dispatch
import Testing

@testable import Canopy

// A root's stores are counted in its link like a child's (`NodeLink`). These tests look at what a user
// sees when the root's last store goes while an action sent to it still waits: the action is reduced
// (SPEC 2.1, 2.2), so what follows from it must be too, as it is for a child. The root's own dispatch
// leaves no handle in the inbox; its drain keeps it instead (`RootNode.drainInbox`).
@Suite(.timeLimit(.minutes(1))) struct RootLinkTests {
    /// What a completion was called with, as text.
    private static func describe<State>(_ outcome: DispatchOutcome<State>) -> String {
        switch outcome {
        case .reduced(let state): "reduced \(state)"
        case .blocked: "blocked"
        case .failed(let error): "failed \(type(of: error))"
        }
    }

    // The weak handle accepted the action while the root's store lived; the completion reads the root
    // through its link when the action is reduced, after the store went, and must find it. The same for
    // a child: `WeakStoreTests.aCompletionThroughAWeakHandleWhoseStoreGoesBeforeItsTurnReportsTheReducedState`.
    @Test func aCompletionThroughARootsWeakHandleWhoseStoreGoesBeforeItsTurnReportsTheReducedState() async {
        var root: StateStore<Int, Int>? = StateStore(0) { state, action in state += action }
        let queue = root!.queue
        let weak = root!.weakStore()
        let outcome = StateRecorder<String>()
        let held = hold(queue)  // the action waits in the inbox while the store goes
        weak.dispatch(1) { outcome.record(Self.describe($0)) }
        root = nil
        held.open()
        let outcomes = await outcome.waitFor(count: 1)
        #expect(outcomes == ["reduced 1"])
    }

    // As above, through a view of the root's weak handle.
    @Test func aCompletionThroughAViewOfARootsWeakHandleReportsTheReducedState() async {
        var root: StateStore<Int, Int>? = StateStore(0) { state, action in state += action }
        let queue = root!.queue
        let weak = root!.weakStore().map(state: { $0 * 10 })
        let outcome = StateRecorder<String>()
        let held = hold(queue)
        weak.dispatch(2) { outcome.record(Self.describe($0)) }
        root = nil
        held.open()
        let outcomes = await outcome.waitFor(count: 1)
        #expect(outcomes == ["reduced 20"])
    }

    // SPEC 9: a middleware's `context.dispatch` is queued after the current action, through a route that
    // does not keep the store; the store went meanwhile, but the root is still kept while its drain runs
    // the middleware, so the follow-up is reduced. A child's inbox entry holds its handle, which keeps it
    // (the test below).
    @Test func aMiddlewaresFollowUpForAnActionSentToARootWhoseStoreThenGoesIsReduced() async {
        var root: StateStore<Int, Int>? = StateStore(0) { state, action in state += action }
        let queue = root!.queue
        let seen = StateRecorder<Int>()
        root!.use(
            Middleware<Int, Int>("echo") { action, context in
                seen.record(action)
                context.next(action)
                if action == 1 { context.dispatch(10) }
            }
        )
        _ = await root!.state  // the middleware is attached
        let held = hold(queue)  // the action waits in the inbox while the store goes
        root!.dispatch(1)
        root = nil
        held.open()
        _ = await seen.waitFor(count: 1)
        await settle(queue)
        await settle(queue)
        #expect(seen.values == [1, 10])
    }

    // The test above, on a child.
    @Test func aMiddlewaresFollowUpForAnActionSentToAChildWhoseStoreThenGoesIsReduced() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { local, action in local += action }
        let seen = StateRecorder<Int>()
        child!.use(
            Middleware<(Int, Int), Int>("echo") { action, context in
                seen.record(action)
                context.next(action)
                if action == 1 { context.dispatch(10) }
            }
        )
        _ = await child!.state
        let held = hold(root.queue)
        child!.dispatch(1)
        child = nil
        held.open()
        _ = await seen.waitFor(count: 1)
        await settle(root.queue)
        await settle(root.queue)
        #expect(seen.values == [1, 10])
        #expect(await root.state == 11)
    }
}
