import Testing

@testable import Canopy

@Suite struct SubscriptionTests {
    private func counter() -> StateStore<Int, Int> {
        StateStore(0) { state, action in state += action }
    }

    @Test func deliversStatesUntilCancelled() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = store.subscribe { recorder.record($0) }
        store.dispatch(1)
        #expect(await recorder.waitFor(count: 2) == [0, 1])
        subscription.cancel()
        #expect(subscription.isCancelled)
        await store.send(1)
        #expect(recorder.values == [0, 1])
    }

    @Test func cancelReleasesTheHandlerWithoutAnotherState() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let (subscription, watcher) = subscribeCapturing(Tracked(), to: store, recorder: recorder)
        _ = await recorder.waitFor(count: 1)
        subscription.cancel()
        await settle(store.queue)  // the removal runs on the queue; no action is dispatched
        #expect(watcher.object == nil)
    }

    @Test func releasingTheTokenCancels() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        var subscription: Subscription? = store.subscribe { recorder.record($0) }
        _ = await recorder.waitFor(count: 1)
        #expect(subscription?.isCancelled == false)
        subscription = nil
        await store.send(1)
        #expect(recorder.values == [0])
    }

    @Test func aSubscriptionDoesNotKeepTheStoreAlive() async {
        var store: StateStore<Tracked, Int>? = StateStore(Tracked()) { _, _ in }
        let queue = store!.queue
        let recorder = StateRecorder<String>()
        let subscription = store!.subscribe { recorder.record($0.name) }
        let state = WeakRef(await store!.state)
        store = nil
        await settle(queue)
        #expect(state.object == nil)
        subscription.cancel()
    }

    @Test func removeStateDuplicatesSkipsDuplicates() async {
        let store = StateStore<[Int], Int>([0, 0]) { state, action in state[action % 2] += 1 }
        let recorder = StateRecorder<[Int]>()
        let subscription = store.subscribe(removeStateDuplicates: .keyPath(\.[0])) { recorder.record($0) }
        for action in [1, 1, 0, 1, 0] { store.dispatch(action) }
        await store.send(1)
        #expect(recorder.values == [[0, 0], [1, 2], [2, 3]])
        subscription.cancel()
    }

    @Test func stateSequenceYieldsStatesAndFinishesWhenTheStoreIsReleased() async {
        var store: StateStore<Int, Int>? = counter()
        let states = store!.states()
        store!.dispatch(1)
        store!.dispatch(2)
        await store!.send(3)
        store = nil
        var received: [Int] = []
        for await state in states { received.append(state) }
        #expect(received == [0, 1, 3, 6])
    }

    @Test func stateSequenceRemovesDuplicates() async {
        var store: StateStore<Int, Int>? = StateStore(0) { state, action in state = action }
        let states = store!.states(removeDuplicates: .asEquatable)
        for action in [0, 1, 1, 2, 2, 2, 1] { store!.dispatch(action) }
        await store!.send(1)
        store = nil
        var received: [Int] = []
        for await state in states { received.append(state) }
        #expect(received == [0, 1, 2, 1])
    }

    private func subscribeCapturing(
        _ captured: Tracked,
        to store: StateStore<Int, Int>,
        recorder: StateRecorder<Int>
    ) -> (Subscription, WeakRef<Tracked>) {
        let subscription = store.subscribe { state in
            _ = captured
            recorder.record(state)
        }
        return (subscription, WeakRef(captured))
    }
}
