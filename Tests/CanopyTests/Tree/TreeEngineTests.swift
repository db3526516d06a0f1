import Dispatch
import Foundation
import Testing

@testable import Canopy

/// What the engine promises beyond the Puredux surface: depth not bounded by the stack, dropped nodes
/// freed as soon as their last action is reduced, and work that follows what changed (SPEC §8).
///
/// A child store whose last handle goes leaves the tree and is visited no more, and Swift may release a
/// local right after its last use, so a test that checks which children a walk visits holds them until
/// then.
@Suite(.timeLimit(.minutes(1))) struct TreeEngineTests {
    /// A chain of `depth` children, each adding its local count to what it sees of its parent.
    private static func chain(depth: Int) -> (root: StateStore<Int, Int>, leaf: StateStore<Int, Int>) {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var leaf = root
        for _ in 0..<depth {
            leaf = leaf.with(0) { local, action in local += action }.map(state: { $0.0 + $0.1 })
        }
        return (root, leaf)
    }

    @Test(arguments: [1_000, 10_000])
    func aDeepTreeReducesAndPublishesAtEveryLevel(depth: Int) async {
        let (root, leaf) = Self.chain(depth: depth)
        let recorder = StateRecorder<Int>()
        let subscription = leaf.subscribe { recorder.record($0) }
        leaf.dispatch(1)  // every level adds 1, the root too
        root.dispatch(2)  // the root only
        #expect(await recorder.waitFor(count: 3) == [0, depth + 1, depth + 3])
        #expect(await leaf.send(1) == 2 * (depth + 1) + 2)
        subscription.cancel()
    }

    @Test func aDeepTreeIsFreedWhenItsLastHandleGoes() async {
        let holder = ReleaseOnce(Self.chain(depth: 10_000))
        let (queue, rootNode) = holder.withValue { ($0.root.queue, WeakRef($0.root.handle.stateNode!.object)) }
        await holder.withValue { $0.leaf }.send(1)
        // The last handles go on a thread with a small stack (Darwin's dispatch threads have 512 KB):
        // freeing the chain must not nest one deinit per level.
        await withCheckedContinuation { continuation in
            let thread = Thread {
                holder.release()
                continuation.resume()
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        // The release of every 64th node moves to the queue, and the nodes leave the tree through work
        // items, in drains that yield the queue every few batches: how many turns of the queue the chain
        // takes depends on how that work batches. Bounded by one turn per node (20,000: a child and a
        // view per level), so a chain that is never freed fails the test instead of hanging it.
        for _ in 0..<20_000 where rootNode.object != nil {
            await settle(queue)
        }
        #expect(rootNode.object == nil)
    }

    @Test func droppedChildrenAreFreedRightAfterTheirLastAction() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        var children: [WeakRef<AnyObject>] = []
        for _ in 0..<2_000 {
            let child = root.with(0) { local, action in local += action }
            child.subscribe(observer: Observer { _ in .active })
            child.dispatch(1)
            children.append(WeakRef(child.handle.stateNode!.object))
        }
        #expect(await root.send(1) == 2_001)
        #expect(children.allSatisfy { $0.object == nil })
    }

    @Test func aChildStaysInTheTreeUntilTheActionsSentThroughItsStoreAreReduced() async {
        // The child's last store goes on the tree's queue, while an action sent through it waits in the
        // inbox: the child still reduces it and its observer sees it, and then the child is freed.
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let result = await dropChildWhileItsActionWaits(root, 5) { root.with(0) { local, action in local += action } }
        #expect(result.root == 106)
        #expect(result.seen == [0, 0, 5])  // the first state, the root's action, its own
        #expect(result.freed)
    }

    @Test func aChildUnderAMapActionsViewStaysInTheTreeUntilItsActionsAreReduced() async {
        // The same under a `map(actions:)` view, where the child has no inbox entries of its own: its
        // actions are work items, which hold the store's handle as an entry would.
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let view = root.map(actions: { (action: String) -> Int in action.count })
        let result = await dropChildWhileItsActionWaits(root, "abc") {
            view.with(0) { local, action in local += action.count }
        }
        #expect(result.root == 104)
        #expect(result.seen == [0, 0, 3])
        #expect(result.freed)
    }

    /// Makes a child with `makeChild`, which only the returned store holds, and subscribes to it; then,
    /// with `root`'s queue held, dispatches 100 to the root and `action` to the child. A root observer
    /// drops the child's only store when the root's action is reduced, on the queue, while the child's
    /// action still waits. Returns the root's state after one more action, the child's first three
    /// local states its observer saw, and whether the child was freed then.
    private func dropChildWhileItsActionWaits<ChildAction: Sendable>(
        _ root: StateStore<Int, Int>,
        _ action: ChildAction,
        makeChild: () -> StateStore<(Int, Int), ChildAction>
    ) async -> (root: Int?, seen: [Int], freed: Bool) {
        let childStore = ReleaseOnce(makeChild())
        let node = childStore.withValue { WeakRef($0.handle.stateNode!.object) }
        let seen = StateRecorder<Int>()
        childStore.withValue {
            $0.subscribe(
                observer: Observer { state in
                    seen.record(state.1)
                    return .active
                }
            )
        }
        root.subscribe(
            observer: Observer { state in
                if state == 100 {
                    childStore.release()
                }
                return .active
            }
        )
        // The queue is held while both actions are sent, so the child's waits behind the root's.
        let gate = hold(root.queue)
        root.dispatch(100)
        childStore.withValue { $0.dispatch(action) }
        gate.open()
        let rootState = await root.send(1)
        return (rootState, await seen.waitFor(count: 3), node.object == nil)
    }

    @Test func aWeakHandleThatReDispatchesOnEveryUpdateDoesNotKeepItsChildAlive() async {
        // An endless chain of causes, which cycle detection (on in debug builds) would stop; this test is
        // about the child's lifetime, so it is off.
        let root = StateStore<Int, Int>(0, options: .init(cycleDetection: .off)) { state, action in state += action }
        var child: StateStore<(Int, Int), Int>? = root.with(0) { local, action in local += action }
        let weak = child!.weakStore()
        let node = WeakRef(child!.handle.stateNode!.object)
        let bounces = StateRecorder<Int>()
        child!.subscribe(
            observer: Observer { state in
                bounces.record(state.1)
                weak.dispatch(1)  // a pending action through the weak handle, on every update
                return .active
            }
        )
        _ = await bounces.waitFor(count: 3)
        child = nil
        // Once the queue has run what was queued when the handle went, nothing holds the child: not
        // the action the observer keeps sending through its weak handle.
        await settle(root.queue)
        await settle(root.queue)
        #expect(node.object == nil)
    }

    @Test func aSiblingWhoseInputsDidNotChangeIsNotVisited() async {
        // The root's state is Equatable and an action to one child leaves it as it was: the other
        // child's raw observer is not called again, the receiving child's is.
        let root = StateStore<Int, Int>(0) { _, _ in }
        let first = root.with(0) { local, action in local += action }
        let second = root.with(0) { local, action in local += action }
        let firstSeen = StateRecorder<Int>()
        let secondSeen = StateRecorder<Int>()
        first.subscribe(
            observer: Observer { state in
                firstSeen.record(state.1)
                return .active
            }
        )
        second.subscribe(
            observer: Observer { state in
                secondSeen.record(state.1)
                return .active
            }
        )
        await first.send(1)
        await first.send(2)
        await second.send(5)
        #expect(firstSeen.values == [0, 1, 3])
        #expect(secondSeen.values == [0, 5])
        withExtendedLifetime(first) {}
    }

    @Test func everyChildIsVisitedWhenTheRootChanges() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let first = root.with(0) { local, action in local += action }
        let second = root.with(0) { local, action in local += action }
        let secondSeen = StateRecorder<[Int]>()
        second.subscribe(
            observer: Observer { state in
                secondSeen.record([state.0, state.1])
                return .active
            }
        )
        await first.send(1)
        await root.send(2)
        #expect(secondSeen.values == [[0, 0], [1, 0], [3, 0]])
        withExtendedLifetime(second) {}
    }

    @Test func theWalkDownVisitsNodesDepthFirstInAttachOrder() async {
        // Leaves and nodes with children mixed, so that the walk visits some children in its loop over
        // a list and goes down into others, coming back to the list after their subtrees. The stores
        // are subscribed in another order than they were made, so that attach order is not creation
        // order.
        let log = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let a = root.with(0) { _, _ in }
        let b = root.with(0) { _, _ in }
        let b1 = b.with(0) { _, _ in }
        let b1a = b1.with(0) { _, _ in }
        let b2 = b.with(0) { _, _ in }
        let c = root.with(0) { _, _ in }
        let d = root.with(0) { _, _ in }
        let d1 = d.with(0) { _, _ in }
        let order = ["root", "c", "d", "d1", "a", "b", "b2", "b1", "b1a"]
        Self.observe(root, as: "root", in: log)
        Self.observe(c, as: "c", in: log)
        Self.observe(d, as: "d", in: log)
        Self.observe(d1, as: "d1", in: log)
        Self.observe(a, as: "a", in: log)
        Self.observe(b, as: "b", in: log)
        Self.observe(b2, as: "b2", in: log)
        Self.observe(b1, as: "b1", in: log)
        Self.observe(b1a, as: "b1a", in: log)
        #expect(await log.waitFor(count: 9) == order)
        await root.send(1)
        #expect(Array(log.values.dropFirst(9)) == order)
        await b1.send(1)  // the root's state changes: the whole tree again
        #expect(Array(log.values.dropFirst(18)) == order)
        withExtendedLifetime((a, b, b1a, b2, c, d, d1)) {}
    }

    @Test func anActionThatChangesNothingOffItsPathWalksThePathOnly() async {
        // The root's state is `Equatable` and no reducer but the receiving child's changes anything:
        // the walk goes down the action's path (every node on it is notified, as in Puredux) and no
        // further; when the path goes on through a node nobody listens to, the walk stops above it.
        let log = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { _, _ in }
        let a = root.with(0) { _, _ in }
        let b = root.with(0) { _, _ in }
        let b1 = b.with(0) { _, _ in }
        let b1a = b1.with(0) { local, action in local += action }
        let b2 = b.with(0) { _, _ in }
        let c = root.with(0) { _, _ in }
        let unobserved = b1.with(0) { local, action in local += action }
        Self.observe(root, as: "root", in: log)
        Self.observe(a, as: "a", in: log)
        Self.observe(b, as: "b", in: log)
        Self.observe(b1, as: "b1", in: log)
        Self.observe(b1a, as: "b1a", in: log)
        Self.observe(b2, as: "b2", in: log)
        Self.observe(c, as: "c", in: log)
        _ = await log.waitFor(count: 7)
        await b1a.send(1)
        #expect(Array(log.values.dropFirst(7)) == ["root", "b", "b1", "b1a"])
        await unobserved.send(1)
        #expect(Array(log.values.dropFirst(11)) == ["root", "b", "b1"])
        #expect(await unobserved.state.1 == 1)
        withExtendedLifetime((a, b, b1, b2, c)) {}
    }

    @Test func childrenThatLeaveTheTreeDuringTheWalkDoNotStopItsSiblings() async {
        // `a` and `c` lose their only observer during the walk, which takes them out of the root's
        // child list while the walk goes through it; `b1`'s going takes `b` out with it, while the walk
        // is below `b`. Their siblings are visited all the same, and in the next walk only they are.
        let log = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let a = root.with(0) { _, _ in }
        let b = root.with(0) { _, _ in }
        let b1 = b.with(0) { _, _ in }
        let c = root.with(0) { _, _ in }
        let d = root.with(0) { _, _ in }
        Self.observe(a, as: "a", in: log, dyingAfter: 2)
        Self.observe(b1, as: "b1", in: log, dyingAfter: 2)
        Self.observe(c, as: "c", in: log, dyingAfter: 2)
        Self.observe(d, as: "d", in: log)
        _ = await log.waitFor(count: 4)
        await root.send(1)
        #expect(Array(log.values.dropFirst(4)) == ["a", "b1", "c", "d"])
        await root.send(1)
        #expect(Array(log.values.dropFirst(8)) == ["d"])
        #expect(await isAttached(a) == false)
        #expect(await isAttached(b) == false)
        #expect(await isAttached(c) == false)
        #expect(await isAttached(d))
        withExtendedLifetime(b1) {}
    }

    @Test func aListEmptiedWhileTheRestOfItWaitsOnTheWalksStackEndsThere() async {
        // The root's list holds `a`, then the empty slot `b` left when its observer went at once. The walk
        // goes below `a` with the rest of the root's list on its stack; `a1`'s going takes `a` out with it,
        // which empties the root's list before the walk comes back to it.
        let log = StateRecorder<String>()
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let a = root.with(0) { _, _ in }
        let a1 = a.with(0) { _, _ in }
        let b = root.with(0) { _, _ in }
        Self.observe(a1, as: "a1", in: log, dyingAfter: 2)
        Self.observe(b, as: "b", in: log, dyingAfter: 1)
        _ = await log.waitFor(count: 2)
        #expect(await isAttached(b) == false)

        await root.send(1)
        #expect(log.values == ["a1", "b", "a1"])
        #expect(await isAttached(a) == false)
        #expect(await root.send(1) == 2)
        withExtendedLifetime((a1, b)) {}
    }

    /// Subscribes an observer that logs `name` on each call and says it is done after `calls` calls.
    private static func observe<State>(
        _ store: StateStore<State, Int>,
        as name: String,
        in log: StateRecorder<String>,
        dyingAfter calls: Int = .max
    ) {
        let made = LockedValue(0)
        store.subscribe(
            observer: Observer { _ in
                log.record(name)
                let count = made.withLock { count in
                    count += 1
                    return count
                }
                return count >= calls ? .dead : .active
            }
        )
    }

    @Test func observersOnThePathSeeEveryActionEvenWhenTheStateIsTheSame() async {
        let root = StateStore<Int, Int>(0) { _, _ in }
        let child = root.with(0) { _, _ in }
        let rootSeen = StateRecorder<Int>()
        root.subscribe(
            observer: Observer { state in
                rootSeen.record(state)
                return .active
            }
        )
        await child.send(1)
        await root.send(1)
        #expect(rootSeen.values == [0, 0, 0])
    }

    @Test func aChildNobodyListensToAnyMoreIsDetachedAndAttachesAgainWithTheCurrentState() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(10) { local, action in local += action }
        let first = StateRecorder<[Int]>()
        let subscription = child.subscribe { first.record([$0.0, $0.1]) }
        _ = await first.waitFor(count: 1)
        subscription.cancel()
        await settle(root.queue)
        #expect(await isAttached(child) == false)
        await root.send(5)
        let second = StateRecorder<[Int]>()
        let again = child.subscribe { second.record([$0.0, $0.1]) }
        #expect(await second.waitFor(count: 1) == [[5, 10]])
        #expect(await isAttached(child))
        again.cancel()
    }

    @Test func aBatchOfCancelsTellsTheTreeWhetherAnythingStillListens() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let recorder = StateRecorder<Int>()
        let kept = root.subscribe(removeStateDuplicates: .keyPath(\.self)) { recorder.record($0) }
        // Past the size where the node indexes its observers, so removals go by the index too.
        let cancelled = (0..<20).map { _ in root.subscribe(removeStateDuplicates: .keyPath(\.self)) { _ in } }
        _ = await recorder.waitFor(count: 1)
        await settle(root.queue)
        // One batch: the queue waits until every cancel has landed, then runs the removals.
        let cancelsLanded = DispatchSemaphore(value: 0)
        // Bounded, so that a cancel that blocked would fail the checks below rather than hang the run.
        root.queue.async { _ = cancelsLanded.wait(timeout: .now() + 60) }
        for subscription in cancelled {
            subscription.cancel()
        }
        #expect(root.handle.tree.cancelledGates.count == 20)
        cancelsLanded.signal()
        await settle(root.queue)
        #expect(await observerCount(root) == 1)
        #expect(await isListenedTo(root))
        kept.cancel()
        await settle(root.queue)
        #expect(await isListenedTo(root) == false)
        await root.send(1)
        #expect(recorder.values == [0])
    }

    /// A subscription finds its observer in the slot its gate keeps, which the node's list rewrites as it
    /// moves observers: after cancels compact the list and new subscriptions grow it, each cancel still
    /// removes its own observer and no other, and the app's observers, which the node finds by id, are
    /// still found.
    @Test func eachCancelFindsItsOwnObserverAfterTheListMoves() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let log = StateRecorder<String>()
        var appObservers: [Observer<Int>] = []
        var subscriptions: [Int: Subscription] = [:]
        func subscribe(_ index: Int) {
            subscriptions[index] = root.subscribe(removeStateDuplicates: .keyPath(\.self)) { state in
                log.record("s\(index) \(state)")
            }
        }
        for index in 0..<30 {
            if index.isMultiple(of: 10) {
                let observer = Observer<Int> { state in
                    log.record("app\(index) \(state)")
                    return .active
                }
                appObservers.append(observer)
                root.subscribe(observer: observer)
            }
            subscribe(index)
        }
        await settle(root.queue)
        #expect(await observerCount(root) == 33)

        // Cancelling all but every fifth leaves the list sparse: it is compacted, and the observers
        // after the first cancelled one move down.
        for index in 0..<30 where !index.isMultiple(of: 5) {
            subscriptions.removeValue(forKey: index)?.cancel()
        }
        await settle(root.queue)
        #expect(await observerCount(root) == 9)
        // New subscriptions grow the list behind them.
        for index in 30..<45 {
            subscribe(index)
        }
        await settle(root.queue)
        #expect(await observerCount(root) == 24)

        // One cancel at a time: each takes one observer away, its own.
        for index in subscriptions.keys.sorted() where index < 30 {
            let before = await observerCount(root)
            subscriptions.removeValue(forKey: index)?.cancel()
            await settle(root.queue)
            #expect(await observerCount(root) == before - 1)
        }
        // The app's observers are found by their ids: subscribed again, each stays one observer.
        for observer in appObservers {
            root.subscribe(observer: observer)
        }
        await root.send(1)
        #expect(await observerCount(root) == 18)
        let called = log.values.filter { $0.hasSuffix(" 1") }
        #expect(called == ["app0 1", "app10 1", "app20 1"] + (30..<45).map { "s\($0) 1" })
        withExtendedLifetime(subscriptions) {}
    }

    /// A child's first subscription lives in its cell, with no gate beside it, and moves into slot 0 of a
    /// list when a second comes; cancelled after the list is compacted, it still takes only itself away.
    @Test func aChildsFirstSubscriptionIsFoundAfterItMovesIntoAList() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(0) { local, action in local += action }
        let log = StateRecorder<String>()
        let first = child.subscribe(removeStateDuplicates: .keyPath(\.1)) { state in log.record("first \(state.1)") }
        await settle(root.queue)
        #expect(await observerCount(child) == 1)
        var others = (0..<12).map { index in
            child.subscribe(removeStateDuplicates: .keyPath(\.1)) { state in log.record("other\(index) \(state.1)") }
        }
        await settle(root.queue)
        #expect(await observerCount(child) == 13)
        // Most of the others go: the list is compacted, and the first stays in slot 0.
        for subscription in others.prefix(10) {
            subscription.cancel()
        }
        others.removeFirst(10)
        await settle(root.queue)
        #expect(await observerCount(child) == 3)
        first.cancel()
        await settle(root.queue)
        #expect(await observerCount(child) == 2)
        await child.send(1)
        #expect(log.values.filter { $0.hasSuffix(" 1") } == ["other10 1", "other11 1"])
        withExtendedLifetime(others) {}
    }

    @Test func subscribingTheSameObserverTwiceKeepsOneAndResendsTheState() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let recorder = StateRecorder<Int>()
        let observer = Observer<Int> { state in
            recorder.record(state)
            return .active
        }
        for _ in 0..<20 {  // past the size where the node indexes its observers
            root.subscribe(observer: Observer { _ in .active })
        }
        root.subscribe(observer: observer)
        root.subscribe(observer: observer)
        await root.send(1)
        #expect(recorder.values == [0, 0, 1])
    }

    /// Holds a value until ``release()`` is called, on whatever thread calls it.
    private final class ReleaseOnce<Value>: @unchecked Sendable {
        // Safety: test-only; `release()` is called once, and `withValue` only before it, on threads
        // ordered with it (the test's, then the tree's queue, which a dispatch synchronises with).
        private var value: Value?

        init(_ value: Value) {
            self.value = value
        }

        func withValue<Result>(_ body: (Value) -> Result) -> Result {
            body(value!)
        }

        func release() {
            value = nil
        }
    }

    private func observerCount<State, Action>(_ store: StateStore<State, Action>) async -> Int {
        let node = store.handle.stateNode!
        return await withCheckedContinuation { continuation in
            store.queue.async { continuation.resume(returning: node.onQueue.observerListCount) }
        }
    }

    private func isListenedTo<State, Action>(_ store: StateStore<State, Action>) async -> Bool {
        let tree = store.handle.tree
        return await withCheckedContinuation { continuation in
            store.queue.async { continuation.resume(returning: tree.queueState.isListenedTo) }
        }
    }

    private func isAttached<State, Action>(_ store: StateStore<State, Action>) async -> Bool {
        let node = store.handle.stateNode!
        return await withCheckedContinuation { continuation in
            store.queue.async { continuation.resume(returning: node.onQueue.isAttached) }
        }
    }
}
