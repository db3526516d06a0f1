import Dispatch
import Testing

@testable import Canopy

// A weak handle does nothing once its store is gone, and Swift may release a local right after its last
// use, so a test that works through a weak handle of a store it means to keep holds that store.
@Suite(.timeLimit(.minutes(1))) struct WeakStoreTests {
    @Test func weakStoreDispatchesWhileTheStoreLives() async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let weak = store.weakStore()
        weak.dispatch(2)
        #expect(await weak.send(3) == 5)
        #expect(await store.state == 5)
    }

    @Test func weakStoreDoesNotKeepTheTreeAlive() async {
        var store: StateStore<Tracked, Int>? = StateStore(Tracked()) { _, _ in }
        let queue = store!.queue
        let weak = store!.weakStore()
        let state = WeakRef(await store!.state)
        store = nil
        await settle(queue)
        #expect(state.object == nil)
        #expect(await weak.state == nil)
    }

    @Test func usingAWeakStoreAfterReleaseDoesNothing() async {
        var store: StateStore<Int, Int>? = StateStore(0) { state, action in state += action }
        let queue = store!.queue
        let weak = store!.weakStore()
        let mapped = weak.map(state: { $0 * 2 })
        store = nil
        await settle(queue)
        let recorder = StateRecorder<Int>()
        weak.dispatch(1)
        weak.subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        mapped.dispatch(1)
        #expect(await weak.send(1) == nil)
        #expect(await mapped.state == nil)
        var received: [Int] = []
        for await state in weak.states() { received.append(state) }
        #expect(received.isEmpty)
        await settle(queue)
        #expect(recorder.values.isEmpty)
    }

    @Test func weakChildStoreReachesTheChild() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(0) { local, action in local -= action }
        let weak = child.weakStore()
        let recorder = StateRecorder<Int>()
        weak.map(state: { $0.0 + $0.1 * 10 }).subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        weak.dispatch(1)
        #expect(await recorder.waitFor(count: 2) == [0, -9])
        withExtendedLifetime(child) {}
    }

    @Test func weakStoreOfATemporaryViewWorksWhileItsStoreLives() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let weak = root.map(state: { $0 * 10 }).weakStore()
        await settle(root.queue)  // the temporary view handle is gone
        let recorder = StateRecorder<Int>()
        weak.subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        weak.dispatch(1)
        #expect(await recorder.waitFor(count: 2) == [0, 10])
        #expect(await weak.send(2) == 30)
        withExtendedLifetime(root) {}
    }

    // SPEC 2.1: an action a weak handle accepted (its store was alive at `dispatch`) is reduced, even if
    // the store's last handle goes before the queue reaches it. The queue is held busy so that the
    // release always comes first.
    @Test func anActionAcceptedByAWeakHandleIsReducedAfterTheLastHandleGoes() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { _, _ in }
        let busy = hold(root.queue)
        child!.weakStore().dispatch(2)
        child = nil
        busy.open()
        #expect(await root.send(1) == 3)
    }

    @Test func anActionAcceptedByAWeakHandleUnderAnActionMapIsReducedAfterTheLastHandleGoes() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), String>? = root.with(0) { _, _ in }.map(actions: { Int($0) ?? 0 })
        let busy = hold(root.queue)
        child!.weakStore().dispatch("2")
        child = nil
        busy.open()
        #expect(await root.send(1) == 3)
    }

    // SPEC 2.1 for `send`: the child was alive when `send` was called through its weak handle, so the action
    // is reduced and `send` returns the state after it, though the child's last store goes first.
    @Test func aSendAcceptedByAWeakHandleIsReducedAfterTheLastHandleGoes() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { local, action in local += action }
        let weak = child!.weakStore()
        let executor = QueueTaskExecutor()
        let held = hold(root.queue)  // the action waits in the inbox while the child goes
        let sent = Task(executorPreference: executor) { await weak.send(5) }
        drain(executor.queue)  // the task has run up to its suspension: the action is in the inbox
        child = nil
        held.open()
        let state = await sent.value
        #expect(state?.0 == 5)
        #expect(state?.1 == 5)
        #expect(await root.state == 5)
    }

    // SPEC 2.1 for an async action that a `map(actions:)` view starts itself (its translation hides it from
    // the child): the translated action is reduced, and the view starts the async action after it, though
    // the child's last store goes before the action's turn.
    @Test func anAsyncActionAcceptedByAWeakTranslatingViewIsReducedAfterTheLastHandleGoes() async {
        let started = StateRecorder<Int>()
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { local, action in local += action }
        let weakView = child!.map(actions: { (_: Hop) in 1 }).weakStore()
        let held = hold(root.queue)
        weakView.dispatch(Hop(started: started))
        child = nil
        held.open()
        #expect(await root.state == 1)
        #expect(await started.waitFor(count: 1) == [1])
    }

    /// An async action that records that it started, and sends nothing back.
    private struct Hop: AsyncAction {
        let started: StateRecorder<Int>
        var dispatchQueue: DispatchQueue { .global() }

        func execute(completeHandler: @escaping (Int) -> Void) {
            started.record(1)
        }
    }

    // A root's stores are counted like a child's: once the last one goes, a weak handle of the root accepts
    // nothing, even while the root is still in memory (here, held by the drain its last action scheduled).
    @Test func aWeakHandleOfARootWhoseStoresAreGoneAcceptsNothingWhileTheRootIsStillInMemory() async {
        var root: StateStore<Int, Int>? = StateStore(0) { state, action in state += action }
        let queue = root!.queue
        let recorder = StateRecorder<Int>()
        root!.subscribe(
            observer: Observer { state in
                recorder.record(state)
                return .active
            }
        )
        let weak = root!.weakStore()
        // The subscription's work item, which holds the store's handle, has run.
        #expect(await recorder.waitFor(count: 1) == [0])
        // So has the drain that ran it, which keeps the root as a store does while it runs: a weak handle
        // may add to a running drain.
        await settle(queue)
        let held = hold(queue)  // the drain that holds the root waits while the store goes
        root!.dispatch(1)
        root = nil
        weak.dispatch(2)
        held.open()
        #expect(await recorder.waitFor(count: 2) == [0, 1])
        await settle(queue)
        #expect(recorder.values == [0, 1])
        #expect(await weak.state == nil)
    }

    @Test func aWeakHandleAcceptsNothingOnceItsStoreHasLeftTheTree() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { _, _ in }
        let weak = child!.weakStore()
        child = nil
        await settle(root.queue)
        weak.dispatch(2)
        #expect(await root.send(1) == 1)
    }

    // SPEC 2.1: a weak handle accepted the action while its store lived, so the action is reduced, and
    // its completion says so, even though the store went before the action's turn.
    @Test func aCompletionThroughAWeakHandleWhoseStoreGoesBeforeItsTurnReportsTheReducedState() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { local, action in local += action }
        let weak = child!.weakStore()
        let outcome = StateRecorder<Int>()
        let held = hold(root.queue)  // the action waits in the inbox while the child goes
        weak.dispatch(1) { result in
            if case .reduced(let state) = result { outcome.record(state.0) }
        }
        child = nil
        held.open()
        #expect(await outcome.waitFor(count: 1) == [1])
        #expect(await root.state == 1)
    }
}
