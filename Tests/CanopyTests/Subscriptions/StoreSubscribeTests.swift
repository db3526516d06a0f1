import Dispatch
import Synchronization
import Testing

@testable import Canopy

/// The subscriber pipeline through the plain-code `subscribe(props:…)`, driven by a manual clock.
///
/// A subscription does not keep its store, and delivers nothing once the store is gone; Swift may
/// release a local right after its last use, so a test that checks deliveries holds its store until
/// they are seen.
@Suite(.timeLimit(.minutes(1))) struct StoreSubscribeTests {
    struct Pair: Equatable, Sendable {
        var a = 0
        var b = 0
    }

    enum PairAction: Sendable {
        case setA(Int)
        case setB(Int)
    }

    static func pairStore(_ scheduler: ManualScheduler) -> StateStore<Pair, PairAction> {
        StateStore(Pair(), scheduler: scheduler) { state, action in
            switch action {
            case .setA(let value): state.a = value
            case .setB(let value): state.b = value
            }
        }
    }

    let scheduler = ManualScheduler()
    let presentation = DispatchQueue(label: "test.presentation")
    let delivery = DispatchQueue(label: "test.delivery")

    func counter() -> StateStore<Int, Int> {
        StateStore(0, scheduler: scheduler) { state, action in state += action }
    }

    /// Flushes every stage of the pipeline: store queue, presentation queue, delivery queue.
    func settle<State: Sendable, Action: Sendable>(_ store: StateStore<State, Action>) async {
        _ = await store.state
        drain(presentation, delivery)
    }

    func subscribe(
        _ store: StateStore<Int, Int>,
        debounce: DebouncePolicy,
        to recorder: StateRecorder<Int>
    ) -> Subscription {
        store.subscribe(
            props: { state, _ in state },
            presentationQueue: presentation,
            debounce: debounce,
            deliveryQueue: delivery,
            observe: { recorder.record($0) }
        )
    }

    @Test func burstWithinTheWindowDeliversOnceWithTheLastState() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .debounce(for: 0.1), to: recorder)
        for _ in 1...5 { store.dispatch(1) }
        await settle(store)
        #expect(recorder.values.isEmpty)
        #expect(scheduler.pendingCount == 1)

        scheduler.advance(by: 0.1)
        #expect(await recorder.waitFor(count: 1) == [5])

        store.dispatch(10)
        await settle(store)
        scheduler.advance(by: 0.1)
        #expect(await recorder.waitFor(count: 2) == [5, 15])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func aStateInsideTheWindowPushesTheDeliveryBack() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .debounce(for: 0.1), to: recorder)
        await settle(store)
        scheduler.advance(by: 0.0625)
        await store.send(1)
        scheduler.advance(by: 0.0625)
        await settle(store)
        #expect(recorder.values.isEmpty)

        scheduler.advance(by: 0.0375)
        #expect(await recorder.waitFor(count: 1) == [1])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func maxWaitDeliversUnderASteadyStream() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .debounce(for: 0.25, maxWait: 1), to: recorder)
        await settle(store)
        // One action every 0.125 s for 2.5 s: never 0.25 s of quiet.
        for _ in 1...20 {
            scheduler.advance(by: 0.125)
            await store.send(1)
        }
        #expect(await recorder.waitFor(count: 2) == [7, 15])

        scheduler.advance(by: 0.25)
        #expect(await recorder.waitFor(count: 3) == [7, 15, 20])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    /// One action every 5 ms for 0.5 s: never the 7 ms of quiet a `.uiDebounce` debounce waits for.
    func sendEveryFiveMilliseconds(to store: StateStore<Int, Int>) async {
        await settle(store)
        for _ in 1...100 {
            scheduler.advance(by: 0.005)
            await store.send(1)
        }
    }

    @Test func theDefaultDebounceDeliversASteadyStreamAtLeastEveryTenthOfASecond() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .default, to: recorder)
        await sendEveryFiveMilliseconds(to: store)
        let during = await recorder.waitFor(count: 4)
        #expect(during.allSatisfy { $0 < 100 })
        #expect(during == during.sorted())

        scheduler.advance(by: .uiDebounce)
        await settle(store)
        #expect(recorder.values.last == 100)
        subscription.cancel()
    }

    @Test func pureTrailingDebounceWaitsForTheStreamToStop() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .trailing(for: .uiDebounce), to: recorder)
        await sendEveryFiveMilliseconds(to: store)
        await settle(store)
        #expect(recorder.values.isEmpty)

        scheduler.advance(by: .uiDebounce)
        #expect(await recorder.waitFor(count: 1) == [100])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func throttleDeliversTheFirstStateAtOnceAndNeverLosesTheLast() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .throttle(for: 0.5), to: recorder)
        #expect(await recorder.waitFor(count: 1) == [0])

        for _ in 1...5 { store.dispatch(1) }
        await settle(store)
        #expect(recorder.values == [0])

        scheduler.advance(by: 0.5)
        #expect(await recorder.waitFor(count: 2) == [0, 5])

        // The interval after that stays quiet and closes; the next state goes out at once.
        scheduler.advance(by: 0.5)
        await store.send(1)
        #expect(await recorder.waitFor(count: 3) == [0, 5, 6])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    static let dedupCases: [(name: String, equating: Equating<Pair>, delivered: [Pair])] = [
        ("keyPath", .keyPath(\.a), [Pair(a: 0, b: 0), Pair(a: 1, b: 0), Pair(a: 2, b: 1)]),
        ("equal", .equal { $0.a + $0.b }, [Pair(a: 0, b: 0), Pair(a: 1, b: 0), Pair(a: 1, b: 1), Pair(a: 2, b: 1)]),
        ("alwaysEqual", .alwaysEqual, [Pair(a: 0, b: 0)]),
        (
            "neverEqual", .neverEqual,
            [
                Pair(a: 0, b: 0), Pair(a: 0, b: 0), Pair(a: 1, b: 0), Pair(a: 1, b: 1), Pair(a: 2, b: 1),
                Pair(a: 2, b: 1),
            ]
        ),
        (
            "and", .keyPath(\.a) && .keyPath(\.b),
            [Pair(a: 0, b: 0), Pair(a: 1, b: 0), Pair(a: 1, b: 1), Pair(a: 2, b: 1)]
        ),
    ]

    @Test(arguments: dedupCases)
    func dedupDropsStatesTheEquatingCallsDuplicates(
        _ example: (name: String, equating: Equating<Pair>, delivered: [Pair])
    ) async {
        let store = Self.pairStore(scheduler)
        let recorder = StateRecorder<Pair>()
        let subscription = store.subscribe(
            props: { state, _ in state },
            presentationQueue: presentation,
            removeStateDuplicates: example.equating,
            debounce: .immediate,
            deliveryQueue: delivery,
            observe: { recorder.record($0) }
        )
        for action in [PairAction.setA(0), .setA(1), .setB(1), .setA(2), .setB(1)] {
            store.dispatch(action)
        }
        await settle(store)
        #expect(recorder.values == example.delivered, "\(example.name)")
        subscription.cancel()
    }

    @Test func aDuplicateCostsOnePredicateCallAndNoTimerOrProps() async {
        let store = Self.pairStore(scheduler)
        let predicateCalls = Atomic(0)
        let propsCalls = Atomic(0)
        let recorder = StateRecorder<Pair>()
        let subscription = store.subscribe(
            props: { state, _ in
                propsCalls.add(1, ordering: .relaxed)
                return state
            },
            presentationQueue: presentation,
            removeStateDuplicates: Equating { lhs, rhs in
                predicateCalls.add(1, ordering: .relaxed)
                return lhs.a == rhs.a
            },
            debounce: .debounce(for: 0.1),
            deliveryQueue: delivery,
            observe: { recorder.record($0) }
        )
        await settle(store)
        scheduler.advance(by: 0.1)
        #expect(await recorder.waitFor(count: 1) == [Pair()])
        #expect(scheduler.pendingCount == 0)

        for value in 1...10 { store.dispatch(.setB(value)) }
        await settle(store)
        #expect(predicateCalls.load(ordering: .relaxed) == 10)
        #expect(propsCalls.load(ordering: .relaxed) == 1)
        #expect(scheduler.pendingCount == 0)
        subscription.cancel()
    }

    @Test func propsRunOnThePresentationQueueAndDeliveryOnTheDeliveryQueue() async {
        let store = counter()
        let onPresentation = QueueMarker(presentation)
        let onDelivery = QueueMarker(delivery)
        let places = StateRecorder<String>()
        let subscription = store.subscribe(
            props: { state, _ in
                places.record(onPresentation.isCurrent ? "props on presentation" : "props elsewhere")
                return state
            },
            presentationQueue: presentation,
            debounce: .immediate,
            deliveryQueue: delivery,
            observe: { _ in places.record(onDelivery.isCurrent ? "observe on delivery" : "observe elsewhere") }
        )
        #expect(await places.waitFor(count: 2) == ["props on presentation", "observe on delivery"])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func deliveryDefaultsToTheMainQueue() async {
        let store = counter()
        let onMain = QueueMarker(.main)
        let onPresentation = QueueMarker(presentation)
        let places = StateRecorder<String>()
        let subscription = store.subscribe(
            props: { state, _ in
                places.record(onPresentation.isCurrent ? "props on presentation" : "props elsewhere")
                return state
            },
            presentationQueue: presentation,
            debounce: .immediate,
            observe: { _ in places.record(onMain.isCurrent ? "observe on main" : "observe elsewhere") }
        )
        #expect(await places.waitFor(count: 2) == ["props on presentation", "observe on main"])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func slowPropsOnASerialQueueKeepDeliveriesInOrder() async {
        let store = counter()
        let gate = Gate()
        let recorder = StateRecorder<Int>()
        let subscription = store.subscribe(
            props: { state, _ in
                if state == 1 { gate.pass() }
                return state
            },
            presentationQueue: presentation,
            debounce: .immediate,
            deliveryQueue: delivery,
            observe: { recorder.record($0) }
        )
        for _ in 1...3 { store.dispatch(1) }
        _ = await store.state
        gate.open()
        #expect(await recorder.waitFor(count: 4) == [0, 1, 2, 3])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func slowPropsOnAConcurrentQueueNeverDeliverOutOfOrder() async {
        let store = counter()
        let concurrent = DispatchQueue(label: "test.concurrent", attributes: .concurrent)
        let gate = Gate()
        let started = StateRecorder<Int>()
        let recorder = StateRecorder<Int>()
        let subscription = store.subscribe(
            props: { state, _ in
                started.record(state)
                if state == 0 { gate.pass() }
                return state
            },
            presentationQueue: concurrent,
            debounce: .immediate,
            deliveryQueue: delivery,
            observe: { recorder.record($0) }
        )
        _ = await started.waitFor(count: 1)
        store.dispatch(1)
        #expect(await recorder.waitFor(count: 1) == [1])

        // The props for state 0 finish last; their delivery is stale and must be dropped.
        gate.open()
        drain(concurrent, delivery)
        #expect(recorder.values == [1])

        store.dispatch(1)
        #expect(await recorder.waitFor(count: 2) == [1, 2])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func cancellingTheTokenStopsPendingDeliveries() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .debounce(for: 0.1), to: recorder)
        await settle(store)
        #expect(scheduler.pendingCount == 1)

        subscription.cancel()
        #expect(subscription.isCancelled)
        await settle(store)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 0.1)
        store.dispatch(1)
        await settle(store)
        #expect(recorder.values.isEmpty)
    }

    @Test func cancellingTheTokenDropsPropsAlreadyOnTheirWay() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store, debounce: .immediate, to: recorder)
        #expect(await recorder.waitFor(count: 1) == [0])

        delivery.suspend()
        store.dispatch(1)
        _ = await store.state
        drain(presentation)
        subscription.cancel()
        delivery.resume()
        drain(delivery)
        #expect(recorder.values == [0])
        withExtendedLifetime(store) {}
    }

    @Test func releasingTheTokenStopsDeliveries() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        var subscription: Subscription? = subscribe(store, debounce: .immediate, to: recorder)
        #expect(await recorder.waitFor(count: 1) == [0])
        #expect(subscription != nil)

        subscription = nil
        store.dispatch(1)
        await settle(store)
        #expect(recorder.values == [0])
    }

    @Test func cancellingReleasesWhatTheSubscriptionCapturedWithoutAnotherState() async {
        final class Sentinel: Sendable {}
        let store = counter()
        var sentinel: Sentinel? = Sentinel()
        let released = WeakRef(sentinel!)
        let subscription = store.subscribe(
            props: { [sentinel] state, _ in withExtendedLifetime(sentinel) { state } },
            presentationQueue: presentation,
            debounce: .debounce(for: 0.1),
            deliveryQueue: delivery,
            observe: { _ in }
        )
        sentinel = nil
        await settle(store)
        #expect(released.object != nil)

        subscription.cancel()
        await settle(store)
        #expect(released.object == nil)
    }

    @Test func theSubscriptionDoesNotKeepTheStoreAlive() async {
        var store: StateStore<Int, Int>? = counter()
        let node = WeakRef(store!.handle as AnyObject)
        let recorder = StateRecorder<Int>()
        let subscription = subscribe(store!, debounce: .debounce(for: 0.1), to: recorder)
        await settle(store!)
        // No work in flight on the store's queue may hold the store: the release alone must free it.
        drain(store!.handle.queue)

        store = nil
        #expect(node.object == nil)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 0.1)
        drain(presentation, delivery)
        #expect(recorder.values.isEmpty)
        subscription.cancel()
    }

    @Test func aSubscriptionThroughATemporaryMappedStoreKeepsWorkingAndCanDispatch() async throws {
        let store = counter()
        let recorder = StateRecorder<String>()
        let subscription = store.map(state: { "count \($0)" })
            .subscribe(
                props: { state, store in
                    if state == "count 1" { store.dispatch(2) }
                    return state
                },
                presentationQueue: presentation,
                debounce: .immediate,
                deliveryQueue: delivery,
                observe: { recorder.record($0) }
            )
        #expect(await recorder.waitFor(count: 1) == ["count 0"])
        // Nothing in flight holds the temporary view any more.
        await settle(store)
        drain(store.handle.queue)

        // The props for state 1 dispatch through the handle they are given, before that delivery.
        store.dispatch(1)
        #expect(await recorder.waitFor(count: 2).prefix(2) == ["count 0", "count 1"])
        try #require(await store.state == 3)
        #expect(await recorder.waitFor(count: 3) == ["count 0", "count 1", "count 3"])

        subscription.cancel()
        await store.send(1)
        await settle(store)
        #expect(recorder.values == ["count 0", "count 1", "count 3"])
    }

    @Test func propsCanDispatchThroughTheStoreTheyAreGiven() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let subscription = store.subscribe(
            props: { state, store in
                if state == 0 { store.dispatch(5) }
                return state
            },
            presentationQueue: presentation,
            debounce: .immediate,
            deliveryQueue: delivery,
            observe: { recorder.record($0) }
        )
        #expect(await recorder.waitFor(count: 2) == [0, 5])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }
}
