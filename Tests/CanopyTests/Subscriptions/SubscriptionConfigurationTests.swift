import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

/// The one entry point, `subscribe(_:props:observe:)`, with each kind of configuration.
///
/// A subscription does not keep its store, and delivers nothing once the store is gone; Swift may
/// release a local right after its last use, so a test that waits for deliveries holds its store.
@Suite(.timeLimit(.minutes(1))) struct SubscriptionConfigurationTests {
    let scheduler = ManualScheduler()
    let presentation = DispatchQueue(label: "test.presentation")

    func counter() -> StateStore<Int, Int> {
        StateStore(0, scheduler: scheduler) { state, action in state += action }
    }

    @Test func factoriesFillInTheUIDefaults() {
        let ui = SubscriptionConfiguration<Int>.mainActor()
        #expect(ui.debounce == .default)
        #expect(ui.presentationQueue === DispatchQueue.sharedPresentationQueue)
        #expect(ui.removeStateDuplicates == nil)
        guard case .mainActor = ui.delivery else {
            Issue.record("expected main-actor delivery")
            return
        }
        let direct = SubscriptionConfiguration<Int>.storeQueue(removeStateDuplicates: .asEquatable)
        #expect(direct.isDirect)
        #expect(!SubscriptionConfiguration<Int>.queue(presentation).isDirect)
        var debounced = direct
        debounced.debounce = .debounce(for: 1)
        #expect(!debounced.isDirect)
    }

    @Test func storeQueueDeliversEveryAcceptedStateOnTheStoreQueueWithProps() async {
        let store = counter()
        let onStore = QueueMarker(store.eraseToAnyStore().handle.queue)
        let recorder = StateRecorder<String>()
        let subscription = store.subscribe(
            .storeQueue(removeStateDuplicates: .asEquatable),
            props: { state, _ in "\(state)" },
            observe: { props in recorder.record(onStore.isCurrent ? props : "\(props) off the store queue") }
        )
        store.dispatch(1)
        store.dispatch(0)
        store.dispatch(2)
        #expect(await recorder.waitFor(count: 3) == ["0", "1", "3"])
        #expect(scheduler.pendingCount == 0)
        subscription.cancel()
    }

    @Test func storeQueueDeliveryWithADebounceComesBackToTheStoreQueue() async {
        let store = counter()
        let onStore = QueueMarker(store.eraseToAnyStore().handle.queue)
        let recorder = StateRecorder<String>()
        var configuration = SubscriptionConfiguration<Int>.storeQueue()
        configuration.debounce = .debounce(for: 0.1)
        configuration.presentationQueue = presentation
        let subscription = store.subscribe(
            configuration,
            props: { state, _ in "\(state)" },
            observe: { props in recorder.record(onStore.isCurrent ? props : "\(props) off the store queue") }
        )
        store.dispatch(1)
        store.dispatch(1)
        _ = await store.state
        scheduler.advance(by: 0.1)
        #expect(await recorder.waitFor(count: 1) == ["2"])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func mainActorDeliveryRunsThePlainObserverOnTheMainQueue() async {
        let store = counter()
        let onMain = QueueMarker(.main)
        let recorder = StateRecorder<String>()
        let subscription = store.subscribe(
            .mainActor(debounce: .immediate, presentationQueue: presentation),
            props: { state, _ in "\(state)" },
            observe: { props in recorder.record(onMain.isCurrent ? props : "\(props) off main") }
        )
        store.dispatch(4)
        #expect(await recorder.waitFor(count: 2) == ["0", "4"])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test(.exitTest) func aUIStateObserverRejectsAConfigurationThatDoesNotDeliverOnTheMainActor() async {
        await #expect(processExitsWith: .failure) {
            final class Screen: UIStateObserver {}
            let store = StateStore<Int, Int>(0) { state, action in state += action }
            Screen().subscribe(
                store: store,
                configuration: .storeQueue(),
                props: { state, _ in state },
                observe: { _ in }
            )
        }
    }
}
