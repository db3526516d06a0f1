import Dispatch
import Foundation
import Testing

@testable import Canopy

/// A child store's cached state: a leaf child makes none (its observers get the state straight from
/// its composition); a child makes one when a node below it starts reading it, and the walk keeps it
/// current from then on.
@Suite(.timeLimit(.minutes(1))) struct StateCacheTests {
    private typealias Pair = (Int, Int)

    private static func tree() -> (root: StateStore<Int, Int>, child: StateStore<Pair, Int>) {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(10) { local, action in local += action }
        return (root, child)
    }

    @Test func aSubscribedLeafChildKeepsNoCacheAndItsObserverSeesEveryState() async {
        let (root, child) = Self.tree()
        let seen = StateRecorder<[Int]>()
        let subscription = child.subscribe { seen.record([$0.0, $0.1]) }
        _ = await seen.waitFor(count: 1)
        await root.send(1)
        await child.send(2)
        #expect(await seen.waitFor(count: 3) == [[0, 10], [1, 10], [3, 12]])
        let state = await child.state
        #expect(state == (3, 12))
        #expect(await hasCache(child) == false)
        subscription.cancel()
    }

    @Test func aChildSubscribedBelowALeafMakesTheLeafCacheItsState() async {
        let (root, child) = Self.tree()
        let childSeen = StateRecorder<[Int]>()
        let childSubscription = child.subscribe { childSeen.record([$0.0, $0.1]) }
        await root.send(1)
        #expect(await hasCache(child) == false)

        let grandchild = child.with(100) { local, action in local += action }
        let seen = StateRecorder<[Int]>()
        let subscription = grandchild.subscribe { seen.record([$0.0.0, $0.0.1, $0.1]) }
        #expect(await seen.waitFor(count: 1) == [[1, 10, 100]])
        #expect(await hasCache(child))

        await root.send(2)
        await child.send(3)
        await grandchild.send(4)
        #expect(await seen.waitFor(count: 4) == [[1, 10, 100], [3, 10, 100], [6, 13, 100], [10, 17, 104]])
        #expect(await childSeen.waitFor(count: 5) == [[0, 10], [1, 10], [3, 10], [6, 13], [10, 17]])
        subscription.cancel()
        childSubscription.cancel()
    }

    @Test func aStoreNobodyListensToBelowALeafReadsCurrentStates() async {
        let (root, child) = Self.tree()
        let childSeen = StateRecorder<[Int]>()
        let childSubscription = child.subscribe { childSeen.record([$0.0, $0.1]) }
        let grandchild = child.with(100) { local, action in local += action }
        await root.send(1)

        // The read makes the leaf's cache; the walk must keep it current for the next reads.
        var state = await grandchild.state
        #expect(state.0 == (1, 10) && state.1 == 100)
        #expect(await hasCache(child))
        await root.send(2)
        await child.send(3)
        state = await grandchild.state
        #expect(state.0 == (6, 13) && state.1 == 100)
        let pair = await child.state
        #expect(pair == (6, 13))
        #expect(await childSeen.waitFor(count: 4) == [[0, 10], [1, 10], [3, 10], [6, 13]])
        childSubscription.cancel()
    }

    @Test func aLeafThatLeftTheTreeComputesItsStateWhenRead() async {
        let (root, child) = Self.tree()
        await root.send(1)
        await child.send(2)
        let state = await child.state
        #expect(state == (3, 12))
        #expect(await hasCache(child) == false)
    }

    private func hasCache<State, Action>(_ store: StateStore<State, Action>) async -> Bool {
        let node = store.node.stateNode!
        return await withCheckedContinuation { continuation in
            store.queue.async { continuation.resume(returning: node.hasCache) }
        }
    }
}
