import CanopyTestSupport
import Dispatch
import Foundation  // Thread
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct SubscriptionTests {
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

    @Test func aPropsSubscriptionsTokenKeepsNothingItCapturedOnceTheStoreIsGone() async {
        var store: StateStore<Int, Int>? = counter()
        let queue = store!.queue
        let delivery = DispatchQueue(label: "delivery")
        let recorder = StateRecorder<Int>()
        let (subscription, watcher) = subscribeWithProps(
            capturing: Tracked(),
            to: store!,
            on: delivery,
            recorder: recorder
        )
        #expect(await recorder.waitFor(count: 1) == [0])
        store = nil
        await settle(queue)  // the node goes, and with it the observer
        await settle(delivery)
        // The subscription ended with its store, but its token is still held: the token must not be what
        // keeps the props and the handler (and what they captured) alive.
        #expect(subscription.isCancelled)
        #expect(watcher.object == nil)
        withExtendedLifetime(subscription) {}
    }

    @Test func aDeduplicatingTokenKeepsNothingTheHandlerCapturedOnceTheStoreIsGone() async {
        var store: StateStore<Int, Int>? = counter()
        let queue = store!.queue
        let recorder = StateRecorder<Int>()
        let (subscription, watcher) = subscribeCapturing(
            Tracked(),
            to: store!,
            recorder: recorder,
            removingDuplicates: true
        )
        #expect(await recorder.waitFor(count: 1) == [0])
        store = nil
        await settle(queue)  // the node goes, and with it the observer
        // The token's gate reaches the node without keeping it, and the handler lives in the node's observer:
        // a token kept after its store must not keep what the handler captured.
        #expect(watcher.object == nil)
        #expect(!subscription.isCancelled)
        subscription.cancel()  // the node is gone: nothing to remove, nothing to wait for
        #expect(subscription.isCancelled)
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

    /// The dedup in front of a handler on the store's queue, which decides who calls it through its gate:
    /// a delivery closure without dedup or behind a predicate's check, the check itself
    /// (`ProjectionFilter`) with a key path's.
    enum Dedup: String, CaseIterable, CustomTestStringConvertible {
        case none, predicate, keyPath

        var equating: Equating<Int>? {
            switch self {
            case .none: nil
            case .predicate: .asEquatable
            case .keyPath: .keyPath(\.self)
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: [1, 3], Dedup.allCases)
    func cancelFromOtherThreadsWaitsOutTheCallInProgress(cancellers: Int, dedup: Dedup) async {
        let store = counter()
        let events = StateRecorder<String>()
        let entered = StateRecorder<Int>()
        let release = Gate()
        let subscription = store.subscribe(removeStateDuplicates: dedup.equating) { state in
            guard state == 1 else { return }
            entered.record(state)
            release.pass()
            events.record("handler returned")
        }
        store.dispatch(1)
        _ = await entered.waitFor(count: 1)  // the handler is running, held by the gate
        let cancelling = StateRecorder<Int>()
        // Threads of their own: blocked cancellers must not wait for Dispatch to grow its pool.
        for canceller in 0..<cancellers {
            Thread {
                cancelling.record(canceller)
                subscription.cancel()
                events.record("cancel returned")
            }.start()
        }
        _ = await cancelling.waitFor(count: cancellers)
        // Each thread signals just before it calls `cancel()`, which marks the subscription at once and
        // then waits for the handler: wait for the mark, so that the cancels are known to be under way
        // while the handler is still held.
        await waitUntil("the cancel's mark") { subscription.isCancelled }
        release.open()
        let expected = ["handler returned"] + Array(repeating: "cancel returned", count: cancellers)
        #expect(await events.waitFor(count: 1 + cancellers) == expected)
        await store.send(1)
        #expect(entered.values == [1])
    }

    @Test(arguments: Dedup.allCases)
    func cancelFromInsideTheHandlerReturnsAndStopsLaterCalls(dedup: Dedup) async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let holder = LockedValue<Subscription?>(nil)
        let subscription = store.subscribe(removeStateDuplicates: dedup.equating) { state in
            recorder.record(state)
            if state == 2 {
                holder.withLock { $0 }?.cancel()  // re-entrant: must not deadlock
                recorder.record(-1)
            }
        }
        holder.withLock { $0 = subscription }
        for action in [1, 1, 1, 1] { store.dispatch(action) }
        await store.send(1)
        #expect(recorder.values == [0, 1, 2, -1])
        #expect(subscription.isCancelled)
    }

    @Test func cancelFromInsideTheFirstCallReturnsAndStopsLaterCalls() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let holder = LockedValue<Subscription?>(nil)
        // The queue is held up until the token is in place, so the first call (the current state, on
        // subscribing) is the one that cancels.
        let gate = hold(store.queue)
        let subscription = store.subscribe { state in
            recorder.record(state)
            holder.withLock { $0 }?.cancel()  // re-entrant, in the first call: must not deadlock
            recorder.record(-1)
        }
        holder.withLock { $0 = subscription }
        gate.open()
        store.dispatch(1)
        await store.send(1)
        #expect(recorder.values == [0, -1])
        #expect(subscription.isCancelled)
    }

    @Test func releasingTheLastTokenInsideTheHandlerStopsIt() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let holder = LockedValue<Subscription?>(nil)
        holder.withLock { slot in
            slot = store.subscribe { state in
                recorder.record(state)
                if state == 1 {
                    _ = holder.exchange(nil)  // deinit cancels on this thread, inside the call
                }
            }
        }
        for action in [1, 1, 1] { store.dispatch(action) }
        await store.send(1)
        #expect(recorder.values == [0, 1])
    }

    /// The program: states flow while other threads cancel; no handler call may begin after
    /// `cancel()` returned. Seeded, so a failure can be replayed with the printed seed.
    @Test(arguments: 0..<8)
    func noCallBeginsAfterCancelReturnsOnAnotherThread(seed: UInt64) async {
        var random = SplitMix64(seed: seed &+ 0x5eed)
        let store = counter()
        let count = 64
        let violations = StateRecorder<Int>()
        let cancelled = (0..<count).map { _ in LockedValue(false) }
        let subscriptions = (0..<count).map { index in
            // No dedup, a predicate's (kept state), or a key path's (the check compiled for its types).
            let dedup: Equating<Int>? = random.chance(50) ? nil : random.chance(50) ? .asEquatable : .keyPath(\.self)
            return store.subscribe(removeStateDuplicates: dedup) { _ in
                if cancelled[index].withLock({ $0 }) { violations.record(index) }
            }
        }
        let order = (0..<count).shuffled(using: &random)
        let started = StateRecorder<Int>()
        let unsubscribe = store.subscribe { state in
            if state == 1 { started.record(state) }
        }
        for _ in 0..<2000 { store.dispatch(1) }
        _ = await started.waitFor(count: 1)  // states are flowing
        let done = StateRecorder<Int>()
        for worker in 0..<2 {
            let mine = order.enumerated().filter { $0.offset % 2 == worker }.map(\.element)
            DispatchQueue.global().async {
                for index in mine {
                    subscriptions[index].cancel()
                    cancelled[index].withLock { $0 = true }
                }
                done.record(worker)
            }
        }
        _ = await done.waitFor(count: 2)
        await store.send(1)
        unsubscribe.cancel()
        #expect(violations.values.isEmpty, "seed \(seed): handlers called after cancel returned: \(violations.values)")
    }

    private func subscribeWithProps(
        capturing captured: Tracked,
        to store: StateStore<Int, Int>,
        on delivery: DispatchQueue,
        recorder: StateRecorder<Int>
    ) -> (Subscription, WeakRef<Tracked>) {
        let subscription = store.subscribe(
            .queue(
                delivery,
                removeStateDuplicates: .keyPath(\.self),
                debounce: .immediate,
                presentationQueue: delivery
            ),
            props: { state, _ in
                _ = captured
                return state
            },
            observe: { state in
                _ = captured
                recorder.record(state)
            }
        )
        return (subscription, WeakRef(captured))
    }

    /// Subscribes a handler that captures `captured`, plain or deduplicating.
    private func subscribeCapturing(
        _ captured: Tracked,
        to store: StateStore<Int, Int>,
        recorder: StateRecorder<Int>,
        removingDuplicates: Bool = false
    ) -> (Subscription, WeakRef<Tracked>) {
        let handler: @Sendable (Int) -> Void = { state in
            _ = captured
            recorder.record(state)
        }
        let subscription =
            removingDuplicates
            ? store.subscribe(removeStateDuplicates: .keyPath(\.self), handler)
            : store.subscribe(handler)
        return (subscription, WeakRef(captured))
    }
}
