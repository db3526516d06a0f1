import Dispatch
import Synchronization
import Testing

@testable import Canopy

// A child store whose last handle goes leaves the tree and sees no more states, and Swift may release a
// local right after its last use, so a test that checks what a child sees after its last use of the
// child holds it until then.

@Suite(.timeLimit(.minutes(1))) struct ChildStoreTests {
    @Test func childStateIsParentStatePairedWithLocalState() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with("a") { text, action in text += "\(action)" }
        child.dispatch(1)
        let state = await child.state
        #expect(state.0 == 1)
        #expect(state.1 == "a1")
    }

    @Test func childSubscribedLaterReceivesTheComposedState() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(10) { local, action in local -= action }
        await child.send(3)
        let recorder = StateRecorder<[Int]>()
        child.subscribe(
            observer: Observer {
                recorder.record([$0.0, $0.1])
                return .active
            }
        )
        #expect(await recorder.waitFor(count: 1) == [[3, 7]])
        root.dispatch(1)
        #expect(await recorder.waitFor(count: 2) == [[3, 7], [4, 7]])
        withExtendedLifetime(child) {}
    }

    @Test func dispatchToTheRootNeverRunsChildReducers() async {
        let calls = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { state, action in
            calls.record("root")
            state += action
        }
        let child = root.with(0) { _, _ in calls.record("child") }
        child.subscribe(observer: Observer { _ in .active })
        root.dispatch(1)
        await child.send(1)
        #expect(calls.values == ["root", "child", "root"])
    }

    @Test func dispatchToAChildNeverRunsItsSiblingsReducer() async {
        let calls = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { _, _ in calls.record("root") }
        let first = root.with(0) { _, _ in calls.record("first") }
        let second = root.with(0) { _, _ in calls.record("second") }
        await first.send(1)
        await second.send(1)
        #expect(calls.values == ["first", "root", "second", "root"])
    }

    @Test func reducersRunLeafFirstAcrossThreeLevels() async {
        let calls = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { _, _ in calls.record("root") }
        let child = root.with(0) { _, _ in calls.record("child") }
        let grandchild = child.with(0) { _, _ in calls.record("grandchild") }
        await grandchild.send(1)
        #expect(calls.values == ["grandchild", "child", "root"])
    }

    @Test func nestedChildrenComposeNestedTuplesThatFlatMapFlattens() async {
        let root = StateStore<Int, Int>(1) { state, action in state += action }
        let tree = root.with("two") { _, _ in }.with(3.0) { _, _ in }.with([4]) { _, _ in }
        let nested = await tree.state
        #expect(nested.0.0.0 == 1 && nested.0.0.1 == "two" && nested.0.1 == 3.0 && nested.1 == [4])
        let flat = tree.eraseToAnyStore().flatMap()
        let recorder = StateRecorder<String>()
        flat.subscribe(
            observer: Observer {
                recorder.record("\($0.0) \($0.1) \($0.2) \($0.3)")
                return .active
            }
        )
        flat.dispatch(1)
        #expect(await recorder.waitFor(count: 2) == ["1 two 3.0 [4]", "2 two 3.0 [4]"])
    }

    @Test func flatMapFlattensTenLevels() async {
        let root = StateStore<Int, Int>(1) { _, _ in }
        let tree = root.with(2) { _, _ in }.with(3) { _, _ in }.with(4) { _, _ in }.with(5) { _, _ in }
            .with(6) { _, _ in }.with(7) { _, _ in }.with(8) { _, _ in }.with(9) { _, _ in }.with(10) { _, _ in }
        let flat = await tree.eraseToAnyStore().flatMap().state!
        #expect([flat.0, flat.1, flat.2, flat.3, flat.4, flat.5, flat.6, flat.7, flat.8, flat.9] == Array(1...10))
    }

    @Test func mapActionsTranslatesBeforeTheParentReduces() async {
        enum Local: Sendable {
            case add(Int)
            case reset
        }
        let root = StateStore<Int, Int>(0) { state, action in state = action < 0 ? 0 : state + action }
        let local = root.map(actions: { (action: Local) -> Int in
            switch action {
            case .add(let amount): amount
            case .reset: -1
            }
        })
        local.dispatch(.add(5))
        #expect(await local.send(.add(2)) == 7)
        #expect(await local.send(.reset) == 0)
    }

    @Test func mapStateAndFlatMapStateTransformWhatObserversSee() async {
        struct Profile: Sendable {
            var name: String
            var nickname: String?
        }
        let root = StateStore<Profile, String>(Profile(name: "a", nickname: nil)) { state, action in
            state.nickname = action
        }
        let name = StateRecorder<String>()
        let nickname = StateRecorder<String?>()
        root.map(state: \.name).subscribe(
            observer: Observer {
                name.record($0)
                return .active
            }
        )
        root.flatMap(state: \.nickname).subscribe(
            observer: Observer {
                nickname.record($0)
                return .active
            }
        )
        root.dispatch("b")
        #expect(await name.waitFor(count: 2) == ["a", "a"])
        #expect(await nickname.waitFor(count: 2) == [nil, "b"])
        #expect(await root.flatMap(state: { $0.nickname?.uppercased() }).state == "B")
    }

    @Test func releasingAChildFreesItsLocalStateAtOnce() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Tracked), Int>? = root.with(Tracked()) { _, _ in }
        child!.subscribe(observer: Observer { _ in .active })
        let local = WeakRef(await child!.state.1)
        child = nil
        await settle(root.queue)  // the drain that answered `state` lets go of its work items
        #expect(local.object == nil)
    }

    @Test func releasingAChildReleasesItsObservers() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { _, _ in }
        let recorder = StateRecorder<Int>()
        let watcher = subscribeCapturing(Tracked(), to: child!, recorder: recorder)
        _ = await recorder.waitFor(count: 1)
        child = nil
        await settle(root.queue)
        #expect(watcher.object == nil)
        await root.send(1)
        #expect(recorder.values == [0])
    }

    @Test func childKeepsItsAncestorsAlive() async {
        var root: StateStore<Tracked, Int>? = StateStore(Tracked()) { _, _ in }
        let child = root!.with(0) { _, _ in }.with(0) { _, _ in }
        let rootState = WeakRef(await root!.state)
        root = nil
        await child.send(1)
        #expect(rootState.object != nil)
        #expect(await child.state.0.0 === rootState.object)
    }

    @Test func parentDoesNotKeepChildrenAlive() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Tracked), Int>? = root.with(Tracked()) { _, _ in }
        var subtree: StateStore<((Int, Tracked), Tracked), Int>? = child!.with(Tracked()) { _, _ in }
        subtree!.subscribe(observer: Observer { _ in .active })
        await subtree!.send(1)
        let local = WeakRef(await child!.state.1)
        let grandchildLocal = WeakRef(await subtree!.state.1)
        subtree = nil
        child = nil
        await settle(root.queue)
        #expect(local.object == nil)
        #expect(grandchildLocal.object == nil)
        #expect(await root.send(1) == 2)
    }

    private func subscribeCapturing(
        _ captured: Tracked,
        to store: StateStore<(Int, Int), Int>,
        recorder: StateRecorder<Int>
    ) -> WeakRef<Tracked> {
        store.subscribe(
            observer: Observer { state in
                _ = captured
                recorder.record(state.0)
                return .active
            }
        )
        return WeakRef(captured)
    }
}

@Suite(.timeLimit(.minutes(1))) struct MappedStoreTests {
    @Test func observersOfATemporaryMappedStoreLiveAsLongAsItsParent() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let recorder = StateRecorder<Int>()
        root.map(state: { $0 * 10 }).subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        await settle(root.queue)  // the temporary view is gone now
        root.dispatch(1)
        root.dispatch(2)
        #expect(await recorder.waitFor(count: 3) == [0, 10, 30])
    }

    @Test func cancellingASubscriptionMadeThroughAMappedStoreRemovesItFromTheParent() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let recorder = StateRecorder<Int>()
        let subscription = root.map(state: { $0 + 100 }).subscribe { recorder.record($0) }
        _ = await recorder.waitFor(count: 1)
        subscription.cancel()
        await settle(root.queue)
        let observers = await withCheckedContinuation { continuation in
            root.queue.async {
                continuation.resume(returning: root.handle.stateNode!.onQueue.observerListCount)
            }
        }
        #expect(observers == 0)
    }

    @Test func childOfAMappedStoreSeesTheMappedParentState() async {
        let root = StateStore<(count: Int, name: String), Int>((0, "a")) { state, action in state.count += action }
        let child = root.map(state: \.count).with("x") { local, action in local += "\(action)" }
        let recorder = StateRecorder<String>()
        child.subscribe(
            observer: Observer {
                recorder.record("\($0.0)\($0.1)")
                return .active
            }
        )
        child.dispatch(1)
        root.dispatch(2)
        #expect(await recorder.waitFor(count: 3) == ["0x", "1x1", "3x1"])
        withExtendedLifetime(child) {}
    }
}
