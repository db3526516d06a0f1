import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

/// Who keeps a node in its tree: its stores and the children made from it. A parent's list holds its
/// attached children only for the tree, which takes a child out on its queue as soon as nothing else
/// keeps it, whatever drops the last store: another thread, a work item, or an observer during a walk.
@Suite(.timeLimit(.minutes(1))) struct TreeOwnershipTests {
    @Test func aChildWhoseStoresAreGoneStaysWhileAChildOfItsOwnLives() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Tracked), Int>? = root.with(Tracked()) { _, _ in }
        let seen = StateRecorder<Int>()
        child!.subscribe(
            observer: Observer { state in
                seen.record(state.0)
                return .active
            }
        )
        var grandchild: StateStore<((Int, Tracked), Int), Int>? = child!.with(0) { _, _ in }
        let local = WeakRef(await child!.state.1)
        child = nil
        await root.send(1)
        // The grandchild keeps its parent, and the parent's observers, as before.
        #expect(await seen.waitFor(count: 2) == [0, 1])
        #expect(local.object != nil)
        #expect(await grandchild!.state.0.0 == 1)

        grandchild = nil
        await settle(root.queue)
        #expect(local.object == nil)
        await root.send(1)
        #expect(seen.values == [0, 1])
    }

    @Test func anObserverCanDropTheLastStoreOfASiblingWaitingForItsTurn() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let first = root.with(0) { _, _ in }
        let sibling = LockedValue<StateStore<(Int, Tracked), Int>?>(root.with(Tracked()) { _, _ in })
        let siblingSeen = StateRecorder<Int>()
        // The first child's observers run before its sibling's; on the second state, one drops the
        // sibling's last store while the sibling waits in the walk.
        first.subscribe(
            observer: Observer { state in
                if state.0 == 1 {
                    sibling.withLock { $0 = nil }
                }
                return .active
            }
        )
        let local = sibling.withLock { store in
            store!.subscribe(
                observer: Observer { state in
                    siblingSeen.record(state.0)
                    return .active
                }
            )
            return store!
        }
        let localState = WeakRef(await local.state.1)
        _ = consume local

        await root.send(1)
        await root.send(1)
        // The sibling left the tree right after the action whose walk dropped it.
        #expect(localState.object == nil)
        #expect(siblingSeen.values.last == 1)
        #expect(siblingSeen.values.count <= 2)
    }

    @Test func anObserverCanDropTheLastStoreOfItsOwnNode() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let holder = LockedValue<StateStore<(Int, Tracked), Int>?>(root.with(Tracked()) { _, _ in })
        let seen = StateRecorder<Int>()
        let local = await holder.withLock { $0! }.state.1
        let localState = WeakRef(local)
        holder.withLock { store in
            store!.subscribe(
                observer: Observer { state in
                    seen.record(state.0)
                    if state.0 == 1 {
                        holder.withLock { $0 = nil }
                    }
                    return .active
                }
            )
        }
        _ = consume local
        await root.send(1)
        await root.send(1)
        #expect(seen.values == [0, 1])
        #expect(localState.object == nil)
    }

    @Test func subscribingThroughAWeakHandleOfAReleasedChildDoesNothing() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var child: StateStore<(Int, Tracked), Int>? = root.with(Tracked()) { _, _ in }
        child!.subscribe(observer: Observer { _ in .active })
        let weak = child!.weakStore()
        let localState = WeakRef(await child!.state.1)
        let seen = StateRecorder<Int>()
        let held = hold(root.queue)  // the child's last store goes while the subscription waits
        weak.subscribe(
            observer: Observer { state in
                seen.record(state.0)
                return .active
            }
        )
        child = nil
        held.open()
        await root.send(1)
        #expect(seen.values.isEmpty)
        #expect(localState.object == nil)
    }

    @Test func childrenMadeAndDroppedOnManyThreadsAtOnceAreAllFreed() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let threads = 4
        let perThread = 250
        let locals = StateRecorder<WeakRef<Tracked>>()
        // Each thread makes a child with an observer, sends it an action, and drops it, while the tree's
        // queue drains what the others send: stores go on every thread, some during a walk.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: threads) { _ in
                    for _ in 0..<perThread {
                        let tracked = Tracked()
                        let child = root.with(tracked) { _, _ in }
                        child.subscribe(observer: Observer { _ in .active })
                        child.dispatch(1)
                        locals.record(WeakRef(tracked))
                    }
                }
                done.resume()
            }
        }
        #expect(await root.send(1) == threads * perThread + 1)
        await settle(root.queue)
        #expect(locals.values.count == threads * perThread)
        #expect(locals.values.allSatisfy { $0.object == nil })
    }

    @Test func childrenKeepTheirOrderAcrossRemovalsAndCompaction() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let order = LockedValue<[Int]>([])
        // A child whose local state is `index`, whose observer notes it on every state after the first.
        func child(_ index: Int) -> StateStore<(Int, Int), Int> {
            let child = root.with(index) { _, _ in }
            child.subscribe(
                observer: Observer { state in
                    if state.0 > 0 {
                        order.withLock { $0.append(state.1) }
                    }
                    return .active
                }
            )
            return child
        }
        var children: [StateStore<(Int, Int), Int>?] = (0..<40).map(child)
        // Drop all but every fifth child, then add more: the list compacts and keeps the survivors'
        // order, the new ones after them.
        for index in children.indices where !index.isMultiple(of: 5) {
            children[index] = nil
        }
        await settle(root.queue)
        for index in 40..<44 {
            children.append(child(index))
        }
        await root.send(1)
        #expect(order.withLock { $0 } == [0, 5, 10, 15, 20, 25, 30, 35, 40, 41, 42, 43])
        withExtendedLifetime(children) {}
    }

    /// A subscription's token reaches its node without keeping it, and keeps nothing of the tree either:
    /// kept after the store's last handle is gone, it does not keep the tree's engine (its queue, its
    /// clock, what other modules attached to it) alive.
    @Test func aSubscriptionKeptAfterItsStoreKeepsNothingOfTheTree() async {
        var store: StateStore<Int, Int>? = StateStore(0) { state, action in state += action }
        let tree = WeakRef(store!.handle.tree)
        let deduplicating = store!.subscribe(removeStateDuplicates: .asEquatable) { _ in }
        #expect(await store!.send(1) == 1)
        store = nil
        #expect(await waitUntil("the tree to be freed") { tree.object == nil })
        withExtendedLifetime(deduplicating) {}
    }
}
