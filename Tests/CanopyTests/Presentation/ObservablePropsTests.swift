import Dispatch
import Observation
import Testing

@testable import Canopy

/// The Observation bridge: an `@Observable` model of a subscription's latest props.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct ObservablePropsTests {
    let scheduler = ManualScheduler()
    let presentation = DispatchQueue(label: "test.presentation")

    func counter() -> StateStore<Int, Int> {
        StateStore(0, scheduler: scheduler) { state, action in state += action }
    }

    /// Suspends until the next change of `model.props`, then returns the new value.
    func nextProps(of model: ObservableProps<String>, after trigger: () -> Void = {}) async -> String? {
        await withCheckedContinuation { continuation in
            withObservationTracking {
                _ = model.props
            } onChange: {
                continuation.resume()
            }
            trigger()
        }
        return model.props
    }

    @Test func trackingIsNotifiedWhenThePropsChange() async {
        let store = counter()
        let model = ObservableProps(
            store: store,
            props: { state, _ in "count \(state)" },
            presentationQueue: presentation,
            debounce: .immediate
        )
        #expect(model.props == nil)
        #expect(await nextProps(of: model) == "count 0")
        #expect(await nextProps(of: model) { store.dispatch(2) } == "count 2")
    }

    @Test func debouncedPropsArriveWhenTheClockMoves() async {
        let store = counter()
        let model = ObservableProps(store: store, props: { state, _ in "\(state)" }, presentationQueue: presentation)
        store.dispatch(1)
        store.dispatch(1)
        _ = await store.state
        #expect(await nextProps(of: model) { scheduler.advance(by: .uiDebounce) } == "2")
    }

    @Test func cancelStopsUpdates() async {
        let store = counter()
        let model = ObservableProps(
            store: store,
            props: { state, _ in "\(state)" },
            presentationQueue: presentation,
            debounce: .immediate
        )
        #expect(await nextProps(of: model) == "0")
        model.cancel()

        // A model subscribed later gets its props after the cancelled one would have.
        let witness = ObservableProps(
            store: store,
            props: { state, _ in "\(state)" },
            presentationQueue: presentation,
            debounce: .immediate
        )
        #expect(await nextProps(of: witness) == "0")
        #expect(await nextProps(of: witness) { store.dispatch(1) } == "1")
        #expect(model.props == "0")
    }

    @Test func releasingTheModelReleasesTheStore() async {
        var model: ObservableProps<String>?
        let node: WeakRef<AnyObject>
        let storeQueue: DispatchQueue
        do {
            let store = counter()
            node = WeakRef(store.handle.stateNode!.object)
            storeQueue = store.handle.queue
            model = ObservableProps(
                store: store,
                props: { state, _ in "\(state)" },
                presentationQueue: presentation,
                debounce: .immediate
            )
        }
        #expect(await nextProps(of: model!) == "0")
        #expect(node.object != nil)
        let modelRef = WeakRef(model!)
        // No work in flight on the store's queue may hold the store: the release alone must free it.
        drain(storeQueue)

        model = nil
        #expect(modelRef.object == nil)
        #expect(node.object == nil)
    }
}
