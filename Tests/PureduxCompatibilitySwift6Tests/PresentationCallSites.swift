import Canopy
import Dispatch
import Foundation
import Synchronization
import Testing

// UIStateObserver and Presentable call sites (SPEC 3.1, 3.2) written as a Puredux 2.x program writes
// them. The same file is compiled in Swift 5 and in Swift 6 language mode.
//
// Props reach an object only while it lives (a presenter's object keeps its store), and a subscription
// delivers only while its store lives; Swift may release a local right after its last use, so each
// test holds them until the props it waits for are seen.

struct CounterProps: Sendable {
    let text: String
    let onMain: Bool
}

/// A plain, non-isolated presentable: made, given a presenter and subscribed from any thread.
final class CounterView: Presentable {
    private let slot = Mutex<PresenterProtocol?>(nil)
    var presenter: PresenterProtocol? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
    let shown = Recorder<CounterProps>()

    func setProps(_ props: String) {
        shown.record(CounterProps(text: props, onMain: MainQueue.isCurrent))
    }
}

/// A main-actor presentable, shaped like a view controller.
@MainActor
final class CounterViewController: Presentable {
    nonisolated let shown = Recorder<String>()
    private nonisolated let slot = Mutex<PresenterProtocol?>(nil)
    nonisolated var presenter: PresenterProtocol? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
    private(set) var label = ""

    func setProps(_ props: String) {
        label = props
        shown.record(props)
    }
}

/// An object that subscribes itself, as a view does.
final class CounterObserver: UIStateObserver, Sendable {
    let shown = Recorder<CounterProps>()
}

/// A factory in ordinary synchronous, non-isolated code, as a coordinator or a test helper is.
func makeCounterView(store: StateStore<CounterState, CounterAction>) -> CounterView {
    let view = CounterView()
    view.setPresenter(
        store: store,
        props: { state, _ in "\(state.count)" },
        presentationQueue: .sharedPresentationQueue,
        removeStateDuplicates: .keyPath(\.count),
        debounceFor: 0
    )
    view.presenter?.subscribeToStore()
    return view
}

@Suite(.timeLimit(.minutes(1)))
struct PresentationCallSites {
    @Test func aPlainPresentableIsConfiguredOffTheMainActorAndGetsPropsOnMain() async {
        let store = StateStore<CounterState, CounterAction>(CounterState(), reducer: reduceCounter)
        _ = MainQueue.isCurrent
        let view = await Task.detached { makeCounterView(store: store) }.value
        #expect(await view.shown.waitFor(count: 1).map(\.text) == ["0"])
        store.dispatch(.rename("ignored by dedup"))
        store.dispatch(.increment)
        let shown = await view.shown.waitFor(count: 2)
        #expect(shown.map(\.text) == ["0", "1"])
        #expect(shown.allSatisfy { $0.onMain })
        withExtendedLifetime(view) {}
    }

    /// Debounced subscriptions run on a manual clock: time moves only when the test says so.
    let clock = ManualScheduler()

    func manualStore() -> StateStore<CounterState, CounterAction> {
        StateStore(CounterState(), scheduler: clock, reducer: reduceCounter)
    }

    /// Lets the debounce window of everything subscribed so far go by.
    func passDebounce(_ store: StateStore<CounterState, CounterAction>) async {
        _ = await store.state
        clock.advance(by: .uiDebounce)
    }

    @Test func everySetPresenterFormDelivers() async {
        let store = manualStore()
        let byStore = CounterView()
        byStore.setPresenter(store: store, props: { state, store in "store \(state.count)" })
        let byDispatch = CounterView()
        byDispatch.setPresenter(store, props: { state, dispatch in "dispatch \(state.count)" }, debounceFor: 0)
        let erased = CounterView()
        erased.setPresenter(
            store: store.eraseToAnyStore(),
            props: { state, _ in "erased \(state.count)" },
            removeStateDuplicates: .asEquatable
        )
        for view in [byStore, byDispatch, erased] {
            view.presenter?.subscribeToStore()
        }
        await passDebounce(store)
        #expect(await byStore.shown.waitFor(count: 1).map(\.text) == ["store 0"])
        #expect(await byDispatch.shown.waitFor(count: 1).map(\.text) == ["dispatch 0"])
        #expect(await erased.shown.waitFor(count: 1).map(\.text) == ["erased 0"])
        withExtendedLifetime((byStore, byDispatch, erased)) {}
    }

    @Test func aMainActorPresentableGetsPropsOnTheMainActor() async {
        let store = manualStore()
        let controller = await MainActor.run { CounterViewController() }
        controller.setPresenter(store, props: { state, dispatch in "\(state.count)" }, debounceFor: .uiDebounce)
        controller.presenter?.subscribeToStore()
        await passDebounce(store)
        #expect(await controller.shown.waitFor(count: 1) == ["0"])
        #expect(await controller.label == "0")
    }

    @Test func everyUIStateObserverSubscribeFormDelivers() async {
        let store = manualStore()
        let observer = CounterObserver()
        let byStore = Recorder<String>()
        observer.subscribe(
            store: store,
            props: { state, store in "store \(state.count)" },
            presentationQueue: .sharedPresentationQueue,
            removeStateDuplicates: .keyPath(\.count),
            debounceFor: .uiDebounce,
            observe: { props in byStore.record(props) }
        )
        let withDefaults = Recorder<String>()
        observer.subscribe(
            store: store,
            props: { state, _ in "defaults \(state.count)" },
            observe: { props in withDefaults.record(props) }
        )
        let byDispatch = Recorder<String>()
        observer.subscribe(
            store,
            props: { state, dispatch in "dispatch \(state.count)" },
            debounceFor: 0,
            observe: { props in byDispatch.record(props) }
        )
        let states = Recorder<Int>()
        observer.subscribe(store, removeStateDuplicates: .asEquatable, debounceFor: 0) { state, dispatch in
            states.record(state.count)
            if state.count == 0 { dispatch(.increment) }
        }
        #expect(await states.waitFor(count: 2) == [0, 1])
        await passDebounce(store)
        // Both states arrived inside one debounce window: the debounced forms show the last.
        #expect(await byStore.waitFor(count: 1) == ["store 1"])
        #expect(await withDefaults.waitFor(count: 1) == ["defaults 1"])
        #expect(await byDispatch.waitFor(count: 2) == ["dispatch 0", "dispatch 1"])
        withExtendedLifetime((observer, store)) {}
    }
}
