import Dispatch
import Testing

@testable import Canopy

/// Cancelled subscriptions have their observers removed in batches (`CancelledGates`): every cancel
/// made before the queue gets to the batch is removed by one work item, none is lost, and what each
/// handler captured goes with it, without another state.
@Suite(.timeLimit(.minutes(1))) struct CancelledGatesTests {
    private func counter() -> StateStore<Int, Int> {
        StateStore(0) { state, action in state += action }
    }

    /// A deduplicating subscription to `store` whose handler records each state it receives and
    /// captures an object that nothing else holds, which the returned reference watches.
    private func subscribe(
        _ store: StateStore<Int, Int>,
        recorder: StateRecorder<Int>
    ) -> (Subscription, WeakRef<Tracked>) {
        let captured = Tracked()
        let subscription = store.subscribe(removeStateDuplicates: .keyPath(\.self)) { state in
            _ = captured
            recorder.record(state)
        }
        return (subscription, WeakRef(captured))
    }

    /// The number of observers of `store`'s node, read on its queue.
    private func observerCount(_ store: StateStore<Int, Int>) async -> Int {
        await withCheckedContinuation { continuation in
            store.queue.async {
                continuation.resume(returning: store.handle.stateNode!.onQueue.observerListCount)
            }
        }
    }

    @Test func cancelsMadeWhileTheQueueIsBusyWaitInOneBatchAndAreAllRemoved() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        var captured: [WeakRef<Tracked>] = []
        var subscriptions: [Subscription] = []
        for _ in 0..<20 {
            let (subscription, watch) = subscribe(store, recorder: recorder)
            subscriptions.append(subscription)
            captured.append(watch)
        }
        _ = await recorder.waitFor(count: 20)
        #expect(await observerCount(store) == 20)

        let held = hold(store.queue)
        for subscription in subscriptions {
            subscription.cancel()
        }
        let tree = store.handle.stateNode!.tree
        #expect(tree.cancelledGates.count == 20, "every cancel waits in the one batch")
        held.open()
        await settle(store.queue)

        #expect(tree.cancelledGates.count == 0)
        #expect(await observerCount(store) == 0)
        #expect(captured.allSatisfy { $0.object == nil }, "a cancelled handler kept what it captured")
        store.dispatch(1)
        await settle(store.queue)
        #expect(recorder.values == Array(repeating: 0, count: 20))
    }

    @Test func aBatchTakenBeforeALaterCancelLeavesItToTheNextBatch() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let (firstSubscription, firstWatch) = subscribe(store, recorder: recorder)
        let (secondSubscription, secondWatch) = subscribe(store, recorder: recorder)
        _ = await recorder.waitFor(count: 2)

        firstSubscription.cancel()
        await settle(store.queue)
        #expect(firstWatch.object == nil)
        #expect(secondWatch.object != nil)
        #expect(await observerCount(store) == 1)

        secondSubscription.cancel()
        await settle(store.queue)
        #expect(secondWatch.object == nil)
        #expect(await observerCount(store) == 0)
    }

    @Test func aSubscriptionMadeAndCancelledWhileAnEarlierRemovalWaitsIsRemovedWhenAdded() async {
        let store = counter()
        let recorder = StateRecorder<Int>()
        let (early, _) = subscribe(store, recorder: recorder)
        _ = await recorder.waitFor(count: 1)

        let held = hold(store.queue)
        // The batch's work item is enqueued here, before the later subscription's addition.
        early.cancel()
        let lateRecorder = StateRecorder<Int>()
        let (lateSubscription, lateWatch) = subscribe(store, recorder: lateRecorder)
        lateSubscription.cancel()
        held.open()
        await settle(store.queue)

        #expect(lateRecorder.values.isEmpty, "a handler was called after its cancel")
        #expect(lateWatch.object == nil)
        #expect(await observerCount(store) == 0)
    }

    @Test func oneBatchRemovesObserversOfDifferentNodes() async {
        let root = counter()
        let child = root.with(0) { local, action in local -= action }
        let rootRecorder = StateRecorder<Int>()
        let childRecorder = StateRecorder<Int>()
        let rootSubscription = root.subscribe { rootRecorder.record($0) }
        let childSubscription = child.subscribe { childRecorder.record($0.1) }
        _ = await rootRecorder.waitFor(count: 1)
        _ = await childRecorder.waitFor(count: 1)

        let held = hold(root.queue)
        rootSubscription.cancel()
        childSubscription.cancel()
        #expect(root.handle.stateNode!.tree.cancelledGates.count == 2)
        held.open()
        root.dispatch(1)
        await settle(root.queue)

        #expect(rootRecorder.values == [0])
        #expect(childRecorder.values == [0])
        #expect(await observerCount(root) == 0)
        let childObservers = await withCheckedContinuation { continuation in
            root.queue.async {
                continuation.resume(returning: child.handle.stateNode!.onQueue.observerListCount)
            }
        }
        #expect(childObservers == 0)
    }

    /// One batch that takes most observers of a root (enough to have an index) and every observer of its
    /// child, moving between the two: each node compacts after each run of removals from it, the last
    /// run included; the root's survivors are still called in subscription order, and the child, with
    /// nobody listening, detaches.
    @Test func aBatchAlternatingBetweenNodesKeepsOrderAndDetachesTheEmptiedChild() async {
        let root = counter()
        let child = root.with(0) { local, action in local -= action }
        let rootOrder = StateRecorder<Int>()
        let childRecorder = StateRecorder<Int>()
        let rootSubscriptions = (0..<12).map { index in
            root.subscribe(removeStateDuplicates: .keyPath(\.self)) { _ in rootOrder.record(index) }
        }
        let childSubscriptions = (0..<3).map { _ in
            child.subscribe(removeStateDuplicates: .keyPath(\.1)) { childRecorder.record($0.1) }
        }
        _ = await rootOrder.waitFor(count: 12)
        _ = await childRecorder.waitFor(count: 3)

        let held = hold(root.queue)
        // The batch: root 0, child 0, root 1, child 1, then the root's others, then the child's last.
        for index in 0..<12 where index % 4 != 3 {
            rootSubscriptions[index].cancel()
            if index < 2 {
                childSubscriptions[index].cancel()
            }
        }
        childSubscriptions[2].cancel()
        #expect(root.handle.stateNode!.tree.cancelledGates.count == 12)
        held.open()
        root.dispatch(1)
        await settle(root.queue)

        #expect(rootOrder.values == Array(0..<12) + [3, 7, 11])
        #expect(childRecorder.values == [0, 0, 0])
        #expect(await observerCount(root) == 3)
        let childIsAttached = await withCheckedContinuation { continuation in
            root.queue.async {
                continuation.resume(returning: child.handle.stateNode!.onQueue.isAttached)
            }
        }
        #expect(!childIsAttached, "a child that nobody listens to any more stayed attached")
        withExtendedLifetime(rootSubscriptions) {}
    }

    /// Props subscriptions, whose pipelines run the delivery gate (``DeliveryGate``), have their observers
    /// found through their own gates and removed in the same batch as the others: each takes away its
    /// own observer, among app observers found by id, with what its props and observer captured.
    @Test func propsSubscriptionsAreRemovedInTheBatchAmongObserversFoundById() async {
        let store = counter()
        let output = DispatchQueue(label: "canopy.test.props-output")
        let props = StateRecorder<Int>()
        let appObservers = StateRecorder<Int>()
        var captured: [WeakRef<Tracked>] = []
        var subscriptions: [Subscription] = []
        for index in 0..<12 {
            if index % 4 == 0 {
                store.subscribe(
                    observer: Observer { state in
                        appObservers.record(state)
                        return .active
                    }
                )
            }
            let tracked = Tracked()
            captured.append(WeakRef(tracked))
            subscriptions.append(
                store.subscribe(
                    .queue(output, removeStateDuplicates: .keyPath(\.self), debounce: .immediate),
                    props: { state, _ in
                        _ = tracked
                        return state
                    },
                    observe: { props.record($0) }
                )
            )
        }
        _ = await props.waitFor(count: 12)
        _ = await appObservers.waitFor(count: 3)
        #expect(await observerCount(store) == 15)

        let held = hold(store.queue)
        for subscription in subscriptions {
            subscription.cancel()
        }
        #expect(store.handle.stateNode!.tree.cancelledGates.count == 12, "every props cancel waits in the batch")
        held.open()
        await settle(store.queue)

        // Gone without another state, which would find each cancelled pipeline and drop it.
        #expect(await observerCount(store) == 3)
        #expect(captured.allSatisfy { $0.object == nil }, "a cancelled props subscription kept what it captured")
        store.dispatch(1)
        #expect(await appObservers.waitFor(count: 6) == [0, 0, 0, 1, 1, 1])
        await settle(output)
        #expect(props.values == Array(repeating: 0, count: 12))
    }

    /// A props subscription to `store`, delivered on `output` with no debounce, whose props closure
    /// captures an object that nothing else holds, which the returned reference watches.
    private func propsSubscription<State: Sendable>(
        _ store: StateStore<State, Int>,
        on output: DispatchQueue,
        recorder: StateRecorder<Int>,
        props: @escaping @Sendable (State) -> Int
    ) -> (Subscription, WeakRef<Tracked>) {
        let captured = Tracked()
        let subscription = store.subscribe(
            .queue(output, debounce: .immediate),
            props: { state, _ in
                _ = captured
                return props(state)
            },
            observe: { recorder.record($0) }
        )
        return (subscription, WeakRef(captured))
    }

    /// A child's first props subscription lives in its cell, with the id made from its gate; moved into
    /// the list when a second one comes, it is still found and removed on cancel, and the second goes on.
    @Test func aChildsPropsSubscriptionIsRemovedFromItsCellAndAfterMovingIntoAList() async {
        let root = counter()
        let child = root.with(0) { local, action in local -= action }
        let output = DispatchQueue(label: "canopy.test.props-output")
        let first = StateRecorder<Int>()
        let (inCell, inCellWatch) = propsSubscription(child, on: output, recorder: first) { $0.1 }
        _ = await first.waitFor(count: 1)
        inCell.cancel()
        await settle(root.queue)
        #expect(inCellWatch.object == nil, "a props subscription cancelled in its cell kept its captures")

        let (moved, movedWatch) = propsSubscription(child, on: output, recorder: first) { $0.1 }
        _ = await first.waitFor(count: 2)
        let second = StateRecorder<Int>()
        let (other, _) = propsSubscription(child, on: output, recorder: second) { $0.1 }
        _ = await second.waitFor(count: 1)
        moved.cancel()
        await settle(root.queue)
        #expect(movedWatch.object == nil, "a props subscription moved into the list kept its captures")

        child.dispatch(1)
        #expect(await second.waitFor(count: 2) == [0, -1])
        await settle(output)
        #expect(first.values == [0, 0], "a cancelled props subscription was called")
        withExtendedLifetime(other) {}
    }

    /// A props subscription to a view has its observer on the viewed node, found through its gate.
    @Test func aPropsSubscriptionToAViewIsRemovedFromTheViewedNode() async {
        let root = counter()
        let view = root.map(state: { $0 * 2 })
        let output = DispatchQueue(label: "canopy.test.props-output")
        let recorder = StateRecorder<Int>()
        let (subscription, watch) = propsSubscription(view, on: output, recorder: recorder) { $0 }
        _ = await recorder.waitFor(count: 1)
        #expect(await observerCount(root) == 1)
        subscription.cancel()
        await settle(root.queue)
        #expect(await observerCount(root) == 0)
        #expect(watch.object == nil)
    }
}
