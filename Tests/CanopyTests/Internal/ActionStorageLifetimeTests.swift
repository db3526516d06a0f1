import Dispatch
import Testing

@testable import Canopy

/// The lives of the actions that wait in a tree's inbox (``ActionStorage``, ``Inbox``): every action
/// made is destroyed exactly once, whether it is handled, dropped (its run is over), delivered to a
/// child or through a weak handle, or still waiting when its storage or its whole tree goes; none is
/// lost, and they are reduced in the order they were sent, across the buffers' growth and trim.
@Suite(.timeLimit(.minutes(2))) struct ActionStorageLifetimeTests {
    // MARK: The storage on its own

    @Test func aStorageFreedPartlyHandledDestroysExactlyTheActionsStillInIt() throws {
        let census = LifeCensus()
        var storage: ActionStorage<Life>? = ActionStorage<Life>.make(capacity: 16, movingFrom: nil)
        for value in 0..<10 {
            storage?.append(Life(value, in: census))
        }
        var handled: [Int] = []
        for _ in 0..<3 {
            storage?.handleNext { handled.append($0.value) }
        }
        #expect(handled == [0, 1, 2])
        #expect(census.alive == 7)
        storage?.dropNext()
        storage?.dropNext()
        #expect(census.alive == 5)
        var handedOver: Int?
        storage?.handOverNext { handedOver = $0.handle(as: Life.self) { $0.value } }
        #expect(handedOver == 5)
        #expect(census.alive == 4)
        storage = nil
        #expect(census.alive == 0)
        #expect(census.made == 10 && !census.wentNegative)
    }

    @Test func growingMovesOnlyTheLiveActionsOfAPartlyHandledStorageAndLeavesItEmpty() {
        let census = LifeCensus()
        var old: ActionStorage<Life>? = ActionStorage<Life>.make(capacity: 8, movingFrom: nil)
        for value in 0..<8 {
            old?.append(Life(value, in: census))
        }
        for _ in 0..<3 {
            old?.dropNext()
        }
        let grown = ActionStorage<Life>.make(capacity: 16, movingFrom: old)
        #expect(census.alive == 5)
        // The old storage is empty: freeing it destroys nothing that moved.
        old = nil
        #expect(census.alive == 5)
        for value in 8..<19 {
            grown.append(Life(value, in: census))
        }
        var values: [Int] = []
        for _ in 0..<16 {
            grown.handleNext { values.append($0.value) }
        }
        #expect(values == Array(3..<19))
        #expect(census.alive == 0 && census.made == 19 && !census.wentNegative)
    }

    // MARK: The inbox on its own

    /// Takes `Life` actions, records their values and destroys them.
    private final class Receiver: InboxReceiver, @unchecked Sendable {
        // Safety: test-only; used on the test's thread, which runs the inbox's batches itself.
        let name: String
        var values: [Int] = []

        init(_ name: String) {
            self.name = name
        }

        func handle(
            _ action: consuming InboxAction,
            entry: EntryContext,
            in turn: borrowing DrainTurn
        ) -> ProcessOutcome {
            values.append(action.handle(as: Life.self) { $0.value })
            return .reduced
        }
    }

    /// Runs everything pending, as a drain does, with `receive` for the root's actions; returns how many
    /// batches ran.
    @discardableResult
    private func drain(_ inbox: Inbox<Life>, receive: (inout Life) -> Void) -> Int {
        var batches = 0
        var batch = inbox.takeSpare()
        while inbox.take(&batch) {
            asDrain { inbox.run(&batch, in: $0, afterEach: {}, receive: receive) }
            batches += 1
        }
        return batches
    }

    @Test func burstsGrowTheBuffersThenTheIdleTrimLetsGoAndEveryActionDiesOnce() {
        // 5,000 actions grow the pending storage from 16 to 8,192 slots; when the drain ends, the
        // emptied buffer is trimmed (above 1,024). The next burst grows a fresh storage again; entries
        // pushed while a batch runs land in the other buffer and come in the next batch.
        let census = LifeCensus()
        let inbox = Inbox<Life>()
        let child = Receiver("child")
        let works = LockedValue<[Int]>([])
        var expectedRoot: [Int] = []
        var expectedChild: [Int] = []
        var made = 0
        for round in 0..<3 {
            let base = round * 100_000
            let count = round == 1 ? 50 : 5_000
            for offset in 0..<count {
                let value = base + offset
                if offset % 5 == 0 {
                    _ = inbox.push(Life(value, in: census), for: child)
                    expectedChild.append(value)
                } else {
                    _ = inbox.push(Life(value, in: census))
                    expectedRoot.append(value)
                }
                if offset % 97 == 0 {
                    _ = inbox.push(work: { works.withLock { $0.append(value) } })
                }
            }
            #expect(census.alive == count)
            var root: [Int] = []
            var echoes = 0
            let batches = drain(inbox) { action in
                root.append(action.value)
                // Some actions of the batch push more, which wait in the pending buffer meanwhile.
                if action.value % 1_000 == 1, action.value - base < 50_000 {
                    _ = inbox.push(Life(action.value + 50_000, in: census))
                    echoes += 1
                }
            }
            let echoed = expectedRoot.filter { $0 >= base && $0 % 1_000 == 1 }.map { $0 + 50_000 }
            let roundRoot = expectedRoot.filter { $0 >= base }
            #expect(root == roundRoot + echoed)
            #expect(echoes == echoed.count)
            #expect(batches == (echoed.isEmpty ? 1 : 2))
            #expect(census.alive == 0)
            made += count + echoes
        }
        #expect(child.values == expectedChild)
        #expect(works.withLock { $0 }.count == 52 + 1 + 52)
        #expect(made == 10_050 + 11)
        #expect(census.made == made && !census.wentNegative)
    }

    @Test func anInboxReleasedAfterGrowingWithEveryKindOfEntryPendingDestroysEachActionOnce() {
        let census = LifeCensus()
        var inbox: Inbox<Life>? = Inbox<Life>()
        let child = Receiver("child")
        let over = EffectRun()
        over.cancel()
        let completions = LockedValue(0)
        for value in 0..<3_000 {
            switch value % 4 {
            case 0: _ = inbox?.push(Life(value, in: census))
            case 1: _ = inbox?.push(Life(value, in: census), for: child)
            case 2:
                _ = inbox?.push(
                    Life(value, in: census),
                    for: child,
                    guardedBy: over,
                    completion: { _ in completions.withLock { $0 += 1 } }
                )
            default: _ = inbox?.push(Life(value, in: census), for: child, guardedBy: EffectRun())
            }
        }
        #expect(census.alive == 3_000)
        inbox = nil
        #expect(census.alive == 0 && census.made == 3_000 && !census.wentNegative)
        #expect(child.values.isEmpty)
        #expect(completions.withLock { $0 } == 0)
    }

    // MARK: Through a tree

    /// The root's state: what its reducer saw, in order.
    private struct Log: Sendable {
        var values: [Int] = []
    }

    private static func root() -> StateStore<Log, Life> {
        StateStore<Log, Life>(Log()) { log, action in log.values.append(action.value) }
    }

    @Test func aBurstToAHeldRootWaitsWholeThenIsReducedInOrderAndEachActionDiesOnce() async {
        let census = LifeCensus()
        let store = Self.root()
        for round in 0..<2 {
            let base = round * 10_000
            let gate = hold(store.queue)
            for value in base..<(base + 5_000) {
                store.dispatch(Life(value, in: census))
            }
            // Nothing ran: every action waits in the inbox, alive once.
            #expect(census.alive == 5_000)
            gate.open()
            let log = await store.state
            #expect(log.values.suffix(5_000) == ArraySlice(base..<(base + 5_000)))
            #expect(census.alive == 0)
        }
        // After two trims, a small stream still goes through.
        for value in 50_000..<50_020 {
            store.dispatch(Life(value, in: census))
        }
        let log = await store.state
        #expect(log.values.count == 10_020 && log.values.last == 50_019)
        #expect(census.alive == 0 && census.made == 10_020 && !census.wentNegative)
    }

    @Test func actionsToChildrenTheRootAndWorkItemsKeepTheirOrder() async {
        // One thread sends to the root, a leaf child, a grandchild (whose parent then caches its state)
        // and work items, all while the queue is held: the root's reducer, which every action reaches,
        // and the work items see one sequence.
        let census = LifeCensus()
        let order = LockedValue<[String]>([])
        let root = StateStore<Int, Life>(0) { count, action in
            count += 1
            order.withLock { $0.append("a\(action.value)") }
        }
        let leaf = root.with([Int]()) { values, action in values.append(action.value) }
        let middle = root.with([Int]()) { values, action in values.append(action.value) }
        let grandchild = middle.with([Int]()) { values, action in values.append(action.value) }
        _ = await grandchild.state
        let gate = hold(root.queue)
        var expected: [String] = []
        var toLeaf: [Int] = []
        var toMiddle: [Int] = []
        var toGrandchild: [Int] = []
        for value in 0..<3_000 {
            switch value % 5 {
            case 0:
                root.dispatch(Life(value, in: census))
            case 1:
                leaf.dispatch(Life(value, in: census))
                toLeaf.append(value)
            case 2:
                middle.dispatch(Life(value, in: census))
                toMiddle.append(value)
            case 3:
                grandchild.dispatch(Life(value, in: census))
                toMiddle.append(value)
                toGrandchild.append(value)
            default:
                root.enqueueForTesting { order.withLock { $0.append("w\(value)") } }
                expected.append("w\(value)")
                continue
            }
            expected.append("a\(value)")
        }
        #expect(census.alive == 2_400)
        gate.open()
        let count = await root.state
        #expect(count == 2_400)
        #expect(order.withLock { $0 } == expected)
        #expect(await leaf.state.1 == toLeaf)
        let state = await grandchild.state
        #expect(state.0.1 == toMiddle)
        #expect(state.1 == toGrandchild)
        #expect(census.alive == 0 && census.made == 2_400 && !census.wentNegative)
    }

    @Test func aWeakHandleDeliversWhatItAcceptedAfterItsStoreIsGoneAndNothingAfterThat() async {
        let census = LifeCensus()
        let root = Self.root()
        var child: StateStore<(Log, Int), Life>? = root.with(0) { count, _ in count += 1 }
        let weakChild = child!.weakStore()
        let weakRoot = root.weakStore()
        let childNode = WeakRef(child!.handle.stateNode!.object)
        _ = await child?.state
        let gate = hold(root.queue)
        for value in 0..<600 {
            if value.isMultiple(of: 2) {
                weakChild.dispatch(Life(value, in: census))
            } else {
                weakRoot.dispatch(Life(value, in: census))
            }
        }
        child = nil
        // The store is gone: the handle takes nothing more, and what it is given dies at once.
        for value in 600..<700 {
            weakChild.dispatch(Life(value, in: census))
        }
        #expect(census.alive == 600)
        gate.open()
        let log = await root.state
        #expect(log.values == Array(0..<600))
        #expect(census.alive == 0 && census.made == 700 && !census.wentNegative)
        await settle(root.queue)
        #expect(childNode.object == nil)
    }

    @Test func completionsAndSendsReportEachActionOnceWithTheStateRightAfterIt() async {
        let census = LifeCensus()
        let root = Self.root()
        let child = root.with(Log()) { log, action in log.values.append(action.value) }
        var gone: StateStore<(Log, Int), Life>? = root.with(0) { _, _ in }
        let weakGone = gone!.weakStore()
        gone = nil
        let outcomes = StateRecorder<String>()
        let gate = hold(root.queue)
        for value in 0..<400 {
            let life = Life(value, in: census)
            if value.isMultiple(of: 2) {
                root.dispatch(life) { outcome in
                    guard case .reduced(let log) = outcome else { return outcomes.record("root \(value) not reduced") }
                    outcomes.record("root \(value) last \(log.values.last ?? -1)")
                }
            } else {
                child.dispatch(life) { outcome in
                    guard case .reduced(let state) = outcome else {
                        return outcomes.record("child \(value) not reduced")
                    }
                    outcomes.record("child \(value) last \(state.1.values.last ?? -1) \(state.0.values.last ?? -1)")
                }
            }
        }
        // Through a handle whose store is gone: failed at once, and the action dies at once.
        let failed = StateRecorder<Bool>()
        weakGone.dispatch(Life(-1, in: census)) { outcome in
            if case .failed(let error) = outcome {
                failed.record(error is StoreReleasedError)
            } else {
                failed.record(false)
            }
        }
        #expect(await failed.waitFor(count: 1) == [true])
        #expect(census.alive == 400)
        gate.open()
        let sent = await child.send(Life(400, in: census))
        #expect(sent.1.values.last == 400 && sent.0.values.count == 401)
        let expected = (0..<400).map { value in
            value.isMultiple(of: 2) ? "root \(value) last \(value)" : "child \(value) last \(value) \(value)"
        }
        #expect(await outcomes.waitFor(count: 400) == expected)
        #expect(census.alive == 0 && census.made == 402 && !census.wentNegative)
    }

    /// A state whose `running` flag switches an effect on and off; `seen` is what the reducer saw.
    private struct Switch: Sendable {
        var running = false
        var seen: [Int] = []
    }

    /// Turns the effect on (1) or off (0), or is a result (any other value).
    private static func reduce(_ state: inout Switch, _ action: Life) {
        switch action.value {
        case 0: state.running = false
        case 1: state.running = true
        default: state.seen.append(action.value)
        }
    }

    @Test(arguments: [false, true])
    func theResultsOfARunThatIsOverAreDroppedAndEachDiesOnce(onChild: Bool) async {
        // The effect hands out its run's `dispatch`; results sent through it while the run is current are
        // reduced, those whose turn comes after the run was cancelled are dropped, waiting or not.
        let census = LifeCensus()
        let root = StateStore<Switch, Life>(Switch()) { state, action in Self.reduce(&state, action) }
        let child = root.with(Switch()) { state, action in Self.reduce(&state, action) }
        let dispatches = StateRecorder<Dispatch<Life>>()
        let effectQueue = DispatchQueue(label: "effects")
        let create: @Sendable (Any, @escaping Dispatch<Life>) -> Effect = { _, dispatch in
            dispatches.record(dispatch)
            return Effect {}
        }
        let seen: @Sendable () async -> [Int]
        let send: @Sendable (Life) -> Void
        if onChild {
            child.effect(toggle: \.1.running, on: effectQueue) { create($0, $1) }
            seen = { await child.state.1.seen }
            send = { child.dispatch($0) }
        } else {
            root.effect(toggle: \.running, on: effectQueue) { create($0, $1) }
            seen = { await root.state.seen }
            send = { root.dispatch($0) }
        }
        send(Life(1, in: census))
        let dispatch = await dispatches.waitFor(count: 1)[0]
        for value in 10..<20 {
            dispatch(Life(value, in: census))
        }
        #expect(await seen() == Array(10..<20))

        // Held: the run is cancelled by the action ahead of the results.
        let gate = hold(root.queue)
        send(Life(0, in: census))
        for value in 20..<2_020 {
            dispatch(Life(value, in: census))
        }
        #expect(census.alive == 2_001)
        gate.open()
        #expect(await seen() == Array(10..<20))
        #expect(census.alive == 0)
        // Sent after the run was over: dropped too.
        for value in 3_000..<3_010 {
            dispatch(Life(value, in: census))
        }
        #expect(await seen() == Array(10..<20))
        #expect(census.alive == 0 && census.made == 2_022 && !census.wentNegative)
        withExtendedLifetime((root, child)) {}
    }

    @Test func actionsAMiddlewareBlocksOrFollowsUpOnDieOnceAndTheRestKeepTheirOrder() async {
        // A root middleware stops every third action and, for every ninth, dispatches a follow-up (an
        // entry with a context of its own, to the root or the child the action was sent to), while the
        // queue is held and the actions wait in the inbox.
        let census = LifeCensus()
        let root = Self.root()
        let child = root.with(0) { count, _ in count += 1 }
        root.use(
            Middleware<Log, Life>("filter") { action, context in
                guard action.value % 3 != 0 else {
                    if action.value % 9 == 0 {
                        context.dispatch(Life(action.value + 100_000, in: census))
                    }
                    return
                }
                context.next(action)
            }
        )
        _ = await child.state
        let gate = hold(root.queue)
        for value in 0..<3_000 {
            if value.isMultiple(of: 2) {
                root.dispatch(Life(value, in: census))
            } else {
                child.dispatch(Life(value, in: census))
            }
        }
        #expect(census.alive == 3_000)
        gate.open()
        let passed = (0..<3_000).filter { $0 % 3 != 0 }
        let followUps = (0..<3_000).filter { $0 % 9 == 0 }.map { $0 + 100_000 }
        let log = await waitForState(root) { $0.values.count >= passed.count + followUps.count }
        #expect(log.values == passed + followUps)
        #expect(await child.state.1 == (passed + followUps).filter { ($0 % 100_000).isMultiple(of: 2) == false }.count)
        #expect(census.alive == 0 && census.made == 3_000 + followUps.count && !census.wentNegative)
    }

    @Test func aTreeReleasedWithActionsWaitingReducesThemAllThenFreesEveryAction() async {
        // Every store of the tree is released while the queue is held and thousands of actions wait in
        // its inbox, to the root, to children, through a view and through weak handles: the drain that
        // was scheduled keeps the tree until they are reduced, then everything goes.
        let census = LifeCensus()
        let states = LifeCensus()
        let reduced = LockedValue<[Int]>([])
        var root: StateStore<Life, Life>? = StateStore<Life, Life>(Life(-1, in: states)) { state, action in
            reduced.withLock { $0.append(action.value) }
            state = Life(action.value, in: states)
        }
        var child: StateStore<(Life, Life), Life>? = root!.with(Life(-2, in: states)) { state, action in
            state = Life(action.value, in: states)
        }
        var grandchild: StateStore<((Life, Life), Int), Life>? = child!.with(0) { count, _ in count += 1 }
        var view: StateStore<Int, Life>? = root!.map(state: { $0.value })
        let weakChild = child!.weakStore()
        let weakRoot = root!.weakStore()
        let rootNode = WeakRef(root!.handle.stateNode!.object)
        let subscription = grandchild!.subscribe { _ in }
        _ = await grandchild?.state
        let gate = hold(root!.queue)
        for value in 0..<5_000 {
            let life = Life(value, in: census)
            switch value % 6 {
            case 0, 1: root?.dispatch(life)
            case 2: child?.dispatch(life)
            case 3: grandchild?.dispatch(life)
            case 4: view?.dispatch(life)
            default:
                if value.isMultiple(of: 4) {
                    weakChild.dispatch(life)
                } else {
                    weakRoot.dispatch(life)
                }
            }
        }
        #expect(census.alive == 5_000)
        subscription.cancel()
        root = nil
        child = nil
        grandchild = nil
        view = nil
        gate.open()
        await states.waitUntilNoneAlive()
        #expect(reduced.withLock { $0 } == Array(0..<5_000))
        #expect(census.alive == 0 && census.made == 5_000 && !census.wentNegative)
        #expect(states.alive == 0 && !states.wentNegative)
        #expect(rootNode.object == nil)
    }
}
