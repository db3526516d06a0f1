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

    /// A child's own state with a value an after-reduce step drains: `pending` counts up until the step
    /// moves it into `drained`.
    private struct Tally: Sendable {
        var hasPending = false
        var pending = 0
        var drained = 0
    }

    @Test(arguments: [false, true])
    func anAfterReduceStepAddedToANodeWithACacheLeavesEveryCacheBelowCurrent(atRoot: Bool) async throws {
        // The step runs once when it is added, outside any action: the node's cache, and those of the
        // nodes below it that compose from it, must show what it did, not wait for the next action.
        let root = StateStore<Tally, Int>(Tally()) { tally, amount in
            tally.pending += amount
            tally.hasPending = true
        }
        let child = root.with(Tally()) { tally, amount in
            tally.pending += amount
            tally.hasPending = true
        }
        let grandchild = child.with(0) { _, _ in }
        let seen = StateRecorder<Int>()
        let subscription = grandchild.subscribe { seen.record($0.1) }
        _ = await seen.waitFor(count: 1)
        await child.send(3)
        #expect(await hasCache(child))

        let added = StateRecorder<Bool>()
        let drain: AfterReduceStep<Tally> = { tally in
            tally.drained += tally.pending
            tally.pending = 0
            tally.hasPending = false
        }
        let flag = try #require(MemoryLayout<Tally>.offset(of: \.hasPending))
        if atRoot {
            let offset = try #require(root.ownStateOffset(of: \.self))
            root.withTreeAccess { access in
                access.addAfterReduce(at: offset, when: flag, drain)
                added.record(true)
            }
        } else {
            let offset = try #require(child.ownStateOffset(of: \.1))
            child.withTreeAccess { access in
                access.addAfterReduce(at: offset, when: flag, drain)
                added.record(true)
            }
        }
        _ = await added.waitFor(count: 1)
        let below = await grandchild.state
        let (rootTally, childTally) = below.0
        if atRoot {
            #expect(rootTally.pending == 0 && rootTally.drained == 3 && !rootTally.hasPending)
            #expect(childTally.pending == 3)
        } else {
            #expect(childTally.pending == 0 && childTally.drained == 3 && !childTally.hasPending)
            #expect(rootTally.pending == 3)
        }
        let direct = await child.state
        #expect(direct.0.drained == below.0.0.drained && direct.1.drained == below.0.1.drained)
        subscription.cancel()
    }

    /// Two values a node's own state holds, each with its own after-reduce step.
    private struct TwoTallies: Sendable {
        var first = Tally()
        var second = Tally()
    }

    @Test(arguments: [false, true])
    func twoAfterReduceStepsOfANodeRunInTheOrderAddedEachWhenItsFlagIsSet(atRoot: Bool) async throws {
        // Actions 1 and 2 fill the first and the second tally; an action fills only its own, so only
        // that step has work. A step runs on its own value, in place, and in the order the steps were
        // added when both have work (action 3 fills both).
        @Sendable func fill(_ tallies: inout TwoTallies, _ action: Int) {
            if action & 1 != 0 {
                tallies.first.pending += 1
                tallies.first.hasPending = true
            }
            if action & 2 != 0 {
                tallies.second.pending += 1
                tallies.second.hasPending = true
            }
        }
        let root = StateStore<TwoTallies, Int>(TwoTallies()) { tallies, action in fill(&tallies, action) }
        let child = root.with(TwoTallies()) { tallies, action in fill(&tallies, action) }
        let runs = StateRecorder<String>()
        @Sendable func step(_ name: String) -> AfterReduceStep<Tally> {
            { tally in
                runs.record("\(name) \(tally.pending)")
                tally.drained += tally.pending
                tally.pending = 0
                tally.hasPending = false
            }
        }
        let flag = try #require(MemoryLayout<Tally>.offset(of: \.hasPending))
        let added = StateRecorder<Bool>()
        if atRoot {
            let first = try #require(root.ownStateOffset(of: \.first))
            let second = try #require(root.ownStateOffset(of: \.second))
            root.withTreeAccess { access in
                access.addAfterReduce(at: first, when: flag, step("first"))
                access.addAfterReduce(at: second, when: flag, step("second"))
                added.record(true)
            }
        } else {
            let first = try #require(child.ownStateOffset(of: \.1.first))
            let second = try #require(child.ownStateOffset(of: \.1.second))
            child.withTreeAccess { access in
                access.addAfterReduce(at: first, when: flag, step("first"))
                access.addAfterReduce(at: second, when: flag, step("second"))
                added.record(true)
            }
        }
        _ = await added.waitFor(count: 1)
        for action in [2, 1, 3] {
            await child.send(action)
        }
        #expect(await runs.waitFor(count: 4) == ["second 1", "first 1", "first 1", "second 1"])
        let state = await child.state
        let tallies = atRoot ? state.0 : state.1
        #expect(tallies.first.drained == 2 && tallies.second.drained == 2)
        #expect(!tallies.first.hasPending && !tallies.second.hasPending)
    }

    private func hasCache<State, Action>(_ store: StateStore<State, Action>) async -> Bool {
        let node = store.handle.stateNode!
        return await withCheckedContinuation { continuation in
            store.queue.async { continuation.resume(returning: node.onQueue.hasCache) }
        }
    }
}
