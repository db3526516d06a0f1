import Dispatch
import Testing

@testable import Canopy

/// `UIStateObserver.subscribe`: props off the main thread, delivery on the main actor, and a
/// subscription that ends with its observer object.
///
/// A subscription delivers only while both its object and its store live, and Swift may release a
/// local right after its last use, so a test that waits for props holds both until they are seen.
@Suite(.timeLimit(.minutes(1))) struct UIStateObserverTests {
    final class Screen: UIStateObserver, Sendable {
        let store: StateStore<(Int, String), Int>?

        init(store: StateStore<(Int, String), Int>? = nil) {
            self.store = store
        }
    }

    let scheduler = ManualScheduler()
    let presentation = DispatchQueue(label: "test.presentation")

    func counter() -> StateStore<Int, Int> {
        StateStore(0, scheduler: scheduler) { state, action in state += action }
    }

    @Test func propsRunOnThePresentationQueueAndObserveOnTheMainActor() async {
        let store = counter()
        let screen = Screen()
        let onPresentation = QueueMarker(presentation)
        let onMain = QueueMarker(.main)
        let places = StateRecorder<String>()
        screen.subscribe(
            store: store,
            props: { state, _ in
                places.record(onPresentation.isCurrent ? "props on presentation" : "props elsewhere")
                return "\(state)"
            },
            presentationQueue: presentation,
            observe: { props in
                places.record(onMain.isCurrent ? "observe \(props) on main" : "observe elsewhere")
            }
        )
        _ = await store.state
        scheduler.advance(by: .uiDebounce)
        #expect(await places.waitFor(count: 2) == ["props on presentation", "observe 0 on main"])
        withExtendedLifetime((screen, store)) {}
    }

    @Test func burstWithinTheDefaultWindowDeliversTheLastState() async {
        let store = counter()
        let screen = Screen()
        let recorder = StateRecorder<Int>()
        screen.subscribe(
            store: store,
            props: { state, _ in state },
            presentationQueue: presentation,
            observe: { props in recorder.record(props) }
        )
        for _ in 1...3 { store.dispatch(1) }
        _ = await store.state
        scheduler.advance(by: .uiDebounce)
        #expect(await recorder.waitFor(count: 1) == [3])

        await store.send(1)
        scheduler.advance(by: .uiDebounce)
        #expect(await recorder.waitFor(count: 2) == [3, 4])
        withExtendedLifetime((screen, store)) {}
    }

    @Test func mainAsPresentationQueueComputesAndDeliversInOneHop() async {
        let store = counter()
        let screen = Screen()
        let onMain = QueueMarker(.main)
        let places = StateRecorder<String>()
        screen.subscribe(
            store: store,
            props: { state, _ in
                places.record(onMain.isCurrent ? "props on main" : "props elsewhere")
                return state
            },
            presentationQueue: .main,
            debounceFor: 0,
            observe: { props in
                places.record("observe \(props)")
            }
        )
        #expect(await places.waitFor(count: 2) == ["props on main", "observe 0"])
        withExtendedLifetime((screen, store)) {}
    }

    @Test func dispatchVariantGivesPropsAWorkingDispatch() async {
        let store = counter()
        let screen = Screen()
        let recorder = StateRecorder<Int>()
        screen.subscribe(
            store,
            props: { state, dispatch in
                if state == 0 { dispatch(7) }
                return state
            },
            presentationQueue: presentation,
            debounceFor: 0,
            observe: { props in
                recorder.record(props)
            }
        )
        #expect(await recorder.waitFor(count: 2) == [0, 7])
        withExtendedLifetime((screen, store)) {}
    }

    @Test func stateVariantDeliversStatesAndDispatchOnTheMainActor() async {
        let store = counter()
        let screen = Screen()
        let onMain = QueueMarker(.main)
        let recorder = StateRecorder<String>()
        screen.subscribe(store, removeStateDuplicates: .asEquatable, debounceFor: 0) { state, dispatch in
            recorder.record(onMain.isCurrent ? "\(state) on main" : "elsewhere")
            if state == 0 { dispatch(2) }
        }
        #expect(await recorder.waitFor(count: 2) == ["0 on main", "2 on main"])
        withExtendedLifetime((screen, store)) {}
    }

    @Test func releasingTheObserverReleasesTheStoreItHolds() async {
        let root = counter()
        var screen: Screen? = Screen(store: root.with("local") { _, _ in })
        let child = WeakRef(screen!.store!.handle.stateNode!.object)
        let recorder = StateRecorder<String>()
        screen!.subscribe(
            store: screen!.store!,
            props: { state, _ in state.1 },
            presentationQueue: presentation,
            observe: { props in recorder.record(props) }
        )
        _ = await root.state
        scheduler.advance(by: .uiDebounce)
        #expect(await recorder.waitFor(count: 1) == ["local"])
        // No work in flight on the store's queue may hold the store: the release alone must free it,
        // on the store's queue, right away (an attached store leaves its tree there).
        drain(root.handle.queue)

        screen = nil
        drain(root.handle.queue)
        #expect(child.object == nil)
    }

    @Test func releasingTheObserverStopsDeliveriesAndDropsItsSubscription() async {
        final class Sentinel: Sendable {}
        let store = counter()
        var screen: Screen? = Screen()
        var sentinel: Sentinel? = Sentinel()
        let captured = WeakRef(sentinel!)
        let released = StateRecorder<Int>()
        screen!.subscribe(
            store: store,
            props: { [sentinel] state, _ in withExtendedLifetime(sentinel) { state } },
            presentationQueue: presentation,
            debounceFor: 0,
            observe: { props in
                released.record(props)
            }
        )
        sentinel = nil
        #expect(await released.waitFor(count: 1) == [0])

        // A second observer subscribed later: its deliveries follow the first one's through every
        // queue, so once it has its props the first one would have had them too.
        let witness = Screen()
        let witnessed = StateRecorder<Int>()
        witness.subscribe(
            store: store,
            props: { state, _ in state },
            presentationQueue: presentation,
            debounceFor: 0,
            observe: { props in witnessed.record(props) }
        )
        screen = nil
        await store.send(1)
        #expect(await witnessed.waitFor(count: 2) == [0, 1])
        #expect(released.values == [0])
        _ = await store.state
        #expect(captured.object == nil)
    }

    @Test func releasingTheObserverEndsItsSubscriptionEvenWhenDedupRejectsEveryState() async {
        final class Sentinel: Sendable {}
        let store = counter()
        var screen: Screen? = Screen()
        var sentinel: Sentinel? = Sentinel()
        let captured = WeakRef(sentinel!)
        let delivered = StateRecorder<Int>()
        screen!.subscribe(
            store: store,
            props: { [sentinel] state, _ in withExtendedLifetime(sentinel) { state } },
            presentationQueue: presentation,
            removeStateDuplicates: .alwaysEqual,
            debounceFor: 0,
            observe: { props in delivered.record(props) }
        )
        sentinel = nil
        #expect(await delivered.waitFor(count: 1) == [0])
        screen = nil
        await store.send(1)  // a duplicate for `.alwaysEqual`; the released owner must still end it
        await settle(store.queue)
        // The blocks that computed and delivered state 0 hold the subscription until they return, which
        // may be after the delivery was recorded: wait for each queue they ran on.
        await settle(presentation)
        await settle(.main)
        #expect(captured.object == nil)
    }
}
