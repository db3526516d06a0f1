import Dispatch
import Testing

@testable import Canopy

/// What a node keeps in its boxes of extras, made only when it needs one: its children, its cached state,
/// its observers past the first, what `use(_:resolvers:)` attached. A leaf child with one observer, the
/// usual child store, has no box.
///
/// A child store whose last handle goes leaves the tree and sees no more states, and Swift may release a
/// local right after its last use, so a test that waits for what a child sees holds it until then.
@Suite(.timeLimit(.minutes(1))) struct NodeExtrasTests {
    private typealias Pair = (Int, Int)

    /// What `store`'s node has, read on its queue.
    private struct Seen: Equatable {
        var hasBox: Bool
        var childCount: Int
        var hasCache: Bool
        var observers: Int
    }

    private func seen<State, Action>(_ store: StateStore<State, Action>) async -> Seen {
        let node = store.handle.stateNode!
        return await withCheckedContinuation { continuation in
            store.queue.async {
                let node = node.onQueue
                let children = node.childSlots.count { $0 != nil }
                continuation.resume(
                    returning: Seen(
                        hasBox: node.hasExtras,
                        childCount: children,
                        hasCache: node.hasCache,
                        observers: node.observerCount
                    )
                )
            }
        }
    }

    @Test func aLeafChildWithOneObserverHasNoBoxAndASecondObserverMakesOne() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(10) { local, action in local += action }
        let first = StateRecorder<Int>()
        let second = StateRecorder<Int>()
        let one = child.subscribe { first.record($0.1) }
        _ = await first.waitFor(count: 1)
        #expect(await seen(child) == Seen(hasBox: false, childCount: 0, hasCache: false, observers: 1))

        let two = child.subscribe { second.record($0.1) }
        _ = await second.waitFor(count: 1)
        #expect(await seen(child) == Seen(hasBox: true, childCount: 0, hasCache: false, observers: 2))
        await child.send(1)
        #expect(await first.waitFor(count: 2) == [10, 11])
        #expect(await second.waitFor(count: 2) == [10, 11])

        // The list stays in the box once made; the observer left in it still gets every state.
        one.cancel()
        await child.send(2)
        #expect(await second.waitFor(count: 3) == [10, 11, 13])
        #expect(await seen(child) == Seen(hasBox: true, childCount: 0, hasCache: false, observers: 1))
        #expect(first.values == [10, 11])
        two.cancel()
    }

    @Test func aParentKeepsItsChildrenAndItsCacheInItsBox() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(10) { local, action in local += action }
        let grandchild = child.with(100) { local, action in local += action }
        let values = StateRecorder<[Int]>()
        let subscription = grandchild.subscribe { values.record([$0.0.0, $0.0.1, $0.1]) }
        _ = await values.waitFor(count: 1)
        #expect(await seen(child) == Seen(hasBox: true, childCount: 1, hasCache: true, observers: 0))
        #expect(await seen(root).childCount == 1)
        #expect(await seen(grandchild).hasBox == false)

        await child.send(1)
        await root.send(2)
        // The child's action reaches the root's reducer too.
        #expect(await values.waitFor(count: 3) == [[0, 10, 100], [1, 11, 100], [3, 11, 100]])

        // Nobody listens below the child any more: it leaves its parent's list, and its own is empty.
        subscription.cancel()
        _ = await child.state
        #expect(await seen(child).childCount == 0)
        #expect(await seen(root).childCount == 0)
        withExtendedLifetime(grandchild) {}
    }

    @Test func anObserverAddedAfterTheListEmptiedIsCalledOncePerState() async {
        // The emptied list stays; the new observer goes into it, not inside the node, and is called once.
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(0) { local, action in local += action }
        let a = StateRecorder<Int>()
        let b = StateRecorder<Int>()
        let c = StateRecorder<Int>()
        let first = child.subscribe { a.record($0.1) }
        _ = await a.waitFor(count: 1)
        let second = child.subscribe { b.record($0.1) }
        _ = await b.waitFor(count: 1)
        first.cancel()
        second.cancel()
        _ = await child.state
        let third = child.subscribe { c.record($0.1) }
        #expect(await c.waitFor(count: 1) == [0])
        await child.send(1)
        await child.send(2)
        #expect(await c.waitFor(count: 3) == [0, 1, 3])
        _ = await child.state
        #expect(c.values == [0, 1, 3])
        third.cancel()
    }

    @Test func aLeafThatGetsAChildChecksItsOwnChangesFromThenOn() async {
        // A leaf skips the change check; once a child attaches below it, an action that leaves its
        // state as it was no longer reaches that child (the root's state never changes here).
        let root = StateStore<Int, Int>(0) { _, _ in }
        let child = root.with(0) { local, action in local += action }
        let grandchild = child.with(0) { _, _ in }
        let leafSeen = StateRecorder<Int>()
        let leaf = child.subscribe { leafSeen.record($0.1) }
        _ = await leafSeen.waitFor(count: 1)
        await child.send(1)
        #expect(await leafSeen.waitFor(count: 2) == [0, 1])

        let seen = StateRecorder<Int>()
        let below = grandchild.subscribe { seen.record($0.0.1) }
        #expect(await seen.waitFor(count: 1) == [1])
        await child.send(2)
        #expect(await seen.waitFor(count: 2) == [1, 3])
        await child.send(0)  // the child's state stays 3: its child is not visited
        await child.send(4)
        #expect(await seen.waitFor(count: 3) == [1, 3, 7])
        _ = await child.state
        #expect(seen.values == [1, 3, 7])
        // The child itself is on the action's path: its observer sees every action.
        #expect(await leafSeen.waitFor(count: 5) == [0, 1, 3, 3, 7])
        leaf.cancel()
        below.cancel()
        withExtendedLifetime(grandchild) {}
    }
}
