import Dispatch
import Testing

@testable import Canopy

/// `Presentable` and its presenter: nothing before `subscribeToStore()`, props to `setProps` on the main
/// actor, and teardown with the object.
///
/// Props reach an object only while it lives, and Swift may release a local right after its last use,
/// so a test that waits for props holds its object (which keeps the store) until they are seen.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct PresentableTests {
    /// A main-actor object, as a view controller is: only its presenter is reachable off the main actor.
    @MainActor
    final class Screen: Presentable {
        private let slot = LockedValue<(any PresenterProtocol)?>(nil)
        nonisolated var presenter: (any PresenterProtocol)? {
            get { slot.withLock { $0 } }
            set { slot.withLock { $0 = newValue } }
        }
        let recorder = StateRecorder<String>()
        let onMain = QueueMarker(.main)

        func setProps(_ props: String) {
            recorder.record(onMain.isCurrent ? props : "\(props) off main")
        }
    }

    let scheduler = ManualScheduler()
    let presentation = DispatchQueue(label: "test.presentation")

    func counter() -> StateStore<Int, Int> {
        StateStore(0, scheduler: scheduler) { state, action in state += action }
    }

    @Test func nothingIsDeliveredBeforeSubscribeToStore() async {
        let store = counter()
        let screen = Screen()
        screen.setPresenter(store: store, props: { state, _ in "\(state)" }, presentationQueue: presentation)
        await store.send(1)
        scheduler.advance(by: 1)
        drain(presentation)
        #expect(scheduler.pendingCount == 0)

        await store.send(1)
        screen.presenter?.subscribeToStore()
        _ = await store.state
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .uiDebounce)
        #expect(await screen.recorder.waitFor(count: 1) == ["2"])
        withExtendedLifetime(screen) {}
    }

    @Test func propsAreComputedOffMainAndSetOnMain() async {
        let store = counter()
        let screen = Screen()
        let onPresentation = QueueMarker(presentation)
        screen.setPresenter(
            store: store,
            props: { state, _ in onPresentation.isCurrent ? "\(state)" : "props off the presentation queue" },
            presentationQueue: presentation,
            removeStateDuplicates: .asEquatable,
            debounceFor: 0
        )
        screen.presenter?.subscribeToStore()
        #expect(await screen.recorder.waitFor(count: 1) == ["0"])
        store.dispatch(0)
        store.dispatch(3)
        #expect(await screen.recorder.waitFor(count: 2) == ["0", "3"])
        withExtendedLifetime(screen) {}
    }

    @Test func dispatchVariantSetsAPresenterToo() async {
        let store = counter()
        let screen = Screen()
        screen.setPresenter(
            store,
            props: { state, dispatch in
                if state == 0 { dispatch(4) }
                return "\(state)"
            },
            presentationQueue: presentation,
            debounceFor: 0
        )
        screen.presenter?.subscribeToStore()
        #expect(await screen.recorder.waitFor(count: 2) == ["0", "4"])
        withExtendedLifetime(screen) {}
    }

    @Test func policyVariantThrottles() async {
        let store = counter()
        let screen = Screen()
        screen.setPresenter(
            store: store,
            props: { state, _ in "\(state)" },
            presentationQueue: presentation,
            debounce: .throttle(for: 1)
        )
        screen.presenter?.subscribeToStore()
        #expect(await screen.recorder.waitFor(count: 1) == ["0"])
        store.dispatch(1)
        await store.send(1)
        scheduler.advance(by: 1)
        #expect(await screen.recorder.waitFor(count: 2) == ["0", "2"])
        withExtendedLifetime(screen) {}
    }

    @Test func subscribingAgainReplacesTheSubscriptionAndResendsTheCurrentState() async {
        let store = counter()
        let screen = Screen()
        screen.setPresenter(
            store: store,
            props: { state, _ in "\(state)" },
            presentationQueue: presentation,
            debounceFor: 0
        )
        screen.presenter?.subscribeToStore()
        #expect(await screen.recorder.waitFor(count: 1) == ["0"])

        screen.presenter?.subscribeToStore()
        #expect(await screen.recorder.waitFor(count: 2) == ["0", "0"])
        await store.send(1)
        #expect(await screen.recorder.waitFor(count: 3) == ["0", "0", "1"])
        // A delivery from the replaced subscription would come before the next one.
        await store.send(1)
        #expect(await screen.recorder.waitFor(count: 4) == ["0", "0", "1", "2"])
        withExtendedLifetime(screen) {}
    }

    @Test func releasingTheObjectReleasesItsStoreAtOnce() async {
        let root = counter()
        var screen: Screen? = Screen()
        do {
            let child = root.with("child") { _, _ in }
            screen!.setPresenter(store: child, props: { state, _ in state.1 }, presentationQueue: presentation)
        }
        screen!.presenter?.subscribeToStore()
        _ = await root.state
        scheduler.advance(by: .uiDebounce)
        #expect(await screen!.recorder.waitFor(count: 1) == ["child"])
        let presenter = WeakRef(screen!.presenter! as AnyObject)
        drain(root.handle.queue)

        screen = nil
        #expect(presenter.object == nil)
        _ = await root.state
        #expect(scheduler.pendingCount == 0)
    }

    @Test func releasingTheObjectTearsTheSubscriptionDownWithoutAnotherState() async {
        final class Sentinel: Sendable {}
        let store = counter()
        var screen: Screen? = Screen()
        var sentinel: Sentinel? = Sentinel()
        let captured = WeakRef(sentinel!)
        screen!.setPresenter(
            store: store,
            props: { [sentinel] state, _ in withExtendedLifetime(sentinel) { "\(state)" } },
            presentationQueue: presentation
        )
        sentinel = nil
        screen!.presenter?.subscribeToStore()
        _ = await store.state
        #expect(captured.object != nil)

        screen = nil
        _ = await store.state
        #expect(captured.object == nil)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func releasingTheObjectReleasesTheStoresNode() async {
        var screen: Screen? = Screen()
        let node: WeakRef<AnyObject>
        let storeQueue: DispatchQueue
        do {
            let store = counter()
            node = WeakRef(store.handle.stateNode!.object)
            storeQueue = store.handle.queue
            screen!.setPresenter(
                store: store,
                props: { state, _ in "\(state)" },
                presentationQueue: presentation,
                debounceFor: 0
            )
        }
        screen!.presenter?.subscribeToStore()
        #expect(await screen!.recorder.waitFor(count: 1) == ["0"])
        #expect(node.object != nil)
        // No work in flight on the store's queue may hold the store: the release alone must free it.
        drain(storeQueue)

        screen = nil
        #expect(node.object == nil)
    }
}
