import Dispatch
import Synchronization
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct StateStoreTests {
    private func counter() -> StateStore<Int, Int> {
        StateStore(0) { state, action in state += action }
    }

    @Test func subscribingSendsTheCurrentState() async {
        let store = counter()
        await store.send(5)
        let recorder = StateRecorder<Int>()
        store.subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        #expect(await recorder.waitFor(count: 1) == [5])
    }

    @Test func resubscribingResendsWithoutDuplicating() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let observer = Observer<Int> {
            recorder.record($0)
            return .active
        }
        store.subscribe(observer: observer)
        store.subscribe(observer: observer)
        store.dispatch(1)
        // Two initial states (one per subscribe), then one per action: not two.
        #expect(await recorder.waitFor(count: 3) == [0, 0, 1])
        await store.send(1)
        #expect(recorder.values == [0, 0, 1, 2])
    }

    @Test func deadObserverReceivesNothingMore() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        store.subscribe(
            observer: Observer { state in
                recorder.record(state)
                return state >= 2 ? .dead : .active
            }
        )
        for _ in 0..<5 { store.dispatch(1) }
        await store.send(0)
        #expect(recorder.values == [0, 1, 2])
    }

    @Test func observerThatIsDeadAtOnceIsNotKept() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        store.subscribe(
            observer: Observer {
                recorder.record($0)
                return .dead
            }
        )
        await store.send(1)
        #expect(recorder.values == [0])
    }

    @Test func observersSeeEveryStateInOrder() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        store.subscribe(
            observer: Observer {
                recorder.record($0)
                return .active
            }
        )
        for _ in 1...250 { store.dispatch(1) }
        #expect(await recorder.waitFor(count: 251) == Array(0...250))
    }

    @Test func observersAreCalledInSubscriptionOrder() async {
        let store = counter()
        let recorder = StateRecorder<String>()
        for name in ["a", "b", "c"] {
            store.subscribe(
                observer: Observer {
                    recorder.record("\(name)\($0)")
                    return .active
                }
            )
        }
        store.dispatch(1)
        #expect(await recorder.waitFor(count: 6) == ["a0", "b0", "c0", "a1", "b1", "c1"])
    }

    @Test func aChildsFirstObserverKeepsItsPlaceAsOthersSubscribeAndLeave() async {
        // The first observer is kept inside the node, and moves into a list when a second comes.
        let root = counter()
        let child = root.with(0) { _, _ in }
        let recorder = StateRecorder<String>()
        func observer(_ name: String, deadAt last: Int = .max) -> Observer<(Int, Int)> {
            Observer { state in
                recorder.record("\(name)\(state.0)")
                return state.0 >= last ? .dead : .active
            }
        }
        let first = observer("a", deadAt: 2)
        child.subscribe(observer: first)
        child.subscribe(observer: first)
        await root.send(1)
        child.subscribe(observer: observer("b"))
        await root.send(1)
        await root.send(1)
        child.subscribe(observer: observer("c"))
        await root.send(1)
        #expect(recorder.values == ["a0", "a0", "a1", "b1", "a2", "b2", "b3", "c3", "b4", "c4"])
        // A child store whose last handle goes leaves the tree and sees no more states, and Swift may
        // release a local right after its last use: the child is held until the root's actions reach it.
        withExtendedLifetime(child) {}
    }

    @Test func reducersAndObserversRunOnTheTreeQueueOffMain() async {
        let key = DispatchSpecificKey<String>()
        let onTreeQueue = StateRecorder<Bool>()
        let store = StateStore<Int, Int>(0) { state, action in
            onTreeQueue.record(DispatchQueue.getSpecific(key: key) == "tree")
            state += action
        }
        store.queue.setSpecific(key: key, value: "tree")
        let child = store.with(0) { local, action in
            onTreeQueue.record(DispatchQueue.getSpecific(key: key) == "tree")
            local += action
        }
        let mapped = child.map(state: { state -> Int in
            onTreeQueue.record(DispatchQueue.getSpecific(key: key) == "tree")
            return state.0 + state.1
        })
        mapped.subscribe(
            observer: Observer { _ in
                onTreeQueue.record(DispatchQueue.getSpecific(key: key) == "tree")
                return .active
            }
        )
        child.dispatch(1)
        let values = await onTreeQueue.waitFor(count: 6)
        #expect(values.allSatisfy { $0 })
        #expect(DispatchQueue.getSpecific(key: key) == nil)
    }

    @Test func dispatchFromInsideAnObserverIsReducedWithoutDeadlock() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        store.subscribe(
            observer: Observer { state in
                recorder.record(state)
                if state == 1 { store.dispatch(10) }
                // Done: the node lets go of the observer, and of the store it captured.
                return state == 11 ? .dead : .active
            }
        )
        store.dispatch(1)
        #expect(await recorder.waitFor(count: 3) == [0, 1, 11])
    }

    @Test func awaitingSendFromAnObserverTaskDoesNotDeadlock() async {
        let store = counter()
        let done = StateRecorder<Int>()
        store.subscribe(
            observer: Observer { state in
                if state == 1 {
                    Task { done.record(await store.send(100)) }
                    // The task holds the store until it is done; the node lets go of the observer.
                    return .dead
                }
                return .active
            }
        )
        store.dispatch(1)
        #expect(await done.waitFor(count: 1) == [101])
    }

    @Test func concurrentProducersLoseNothingAndKeepTheirOrder() async {
        struct Log: Sendable {
            var perProducer: [[Int]] = Array(repeating: [], count: 4)
        }
        let producers = 4
        let actionsEach = 5_000
        let store = StateStore<Log, (producer: Int, sequence: Int)>(Log()) { state, action in
            state.perProducer[action.producer].append(action.sequence)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: producers) { producer in
                    for sequence in 0..<actionsEach {
                        store.dispatch((producer, sequence))
                    }
                }
                continuation.resume()
            }
        }
        let log = await store.state
        for producer in 0..<producers {
            #expect(log.perProducer[producer] == Array(0..<actionsEach))
        }
    }

    @Test func sendReturnsTheStateRightAfterTheAction() async {
        let store = counter()
        store.dispatch(1)
        #expect(await store.send(2) == 3)
        store.dispatch(4)
        #expect(await store.state == 7)
    }

    @Test func actionsThroughTemporaryHandlesAreReduced() async {
        let root = counter()
        root.map(state: { $0 }).dispatch(1)
        root.with("") { _, _ in }.dispatch(2)
        root.map(actions: { (text: String) in Int(text)! }).dispatch("3")
        root.eraseToAnyStore().map(state: \.self).dispatch(4)
        #expect(await root.state == 10)
    }

    @Test func releasingTheRootFreesIt() async {
        var store: StateStore<Tracked, Int>? = StateStore(Tracked()) { _, _ in }
        let queue = store!.queue
        let state = WeakRef(await store!.state)
        store!.dispatch(1)
        store = nil
        await settle(queue)
        #expect(state.object == nil)
    }
}

@Suite(.timeLimit(.minutes(1))) struct DrainFairnessTests {
    @Test func aSustainedStreamStillLetsOtherWorkOnTheQueueRun() async {
        // The stream is one endless chain of causes, which cycle detection (on in debug builds) would
        // stop; this test is about the queue, so it is off.
        let store = StateStore<Int, Int>(0, options: .init(cycleDetection: .off)) { state, action in state += action }
        let weak = store.weakStore()
        let otherWorkRan = StateRecorder<Int>()
        // Every state dispatches the next action, so the inbox never empties until the other work runs.
        let subscription = store.subscribe { state in
            if otherWorkRan.values.isEmpty { weak.dispatch(1) }
        }
        await settle(store.queue)  // a plain queue item; it runs only if the drain hands the queue back
        otherWorkRan.record(1)
        let final = await store.state
        #expect(final > 0)
        #expect(otherWorkRan.values == [1])
        subscription.cancel()
    }
}
