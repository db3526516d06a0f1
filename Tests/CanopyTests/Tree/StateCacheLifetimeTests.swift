import Dispatch
import Testing

@testable import Canopy

/// The lives of the states a tree caches (``StateCache``): the root's, a child's made when first needed,
/// a mapped node's; every state value made is destroyed exactly once, a cache replaced lets go of what it
/// held, nothing is kept once the tree is gone, and a state read is current. After-reduce steps read
/// their flag in the cached state, in place.
@Suite(.timeLimit(.minutes(2))) struct StateCacheLifetimeTests {
    // MARK: The cache on its own

    /// A state with a class reference ahead of a flag, so that the flag lies away from the start.
    private struct Marked: Sendable {
        var life: Life
        var tag: Int8 = 0
        var isMarked = false
        var count = 0
    }

    @Test func aCacheHoldsOneStateReplacesItInPlaceAndDestroysItOnce() throws {
        let census = LifeCensus()
        let flag = try #require(MemoryLayout<Marked>.offset(of: \.isMarked))
        var cache: StateCache<Marked>? = StateCache.make(Marked(life: Life(0, in: census)))
        #expect(census.alive == 1)
        #expect(cache?.read { $0.life.value } == 0)
        #expect(cache?.bool(atByteOffset: flag) == false)
        for value in 1...100 {
            cache?.modify { state in
                state.life = Life(value, in: census)
                state.isMarked = value.isMultiple(of: 2)
                state.count += 1
            }
            #expect(cache?.bool(atByteOffset: flag) == value.isMultiple(of: 2))
        }
        // Each replaced state died as it was replaced; the current one is the only one left.
        #expect(census.alive == 1)
        #expect(cache?.read { [$0.life.value, $0.count] } == [100, 100])
        cache = nil
        #expect(census.alive == 0 && census.made == 101 && !census.wentNegative)
    }

    // MARK: Through a tree

    /// A node's own state: a life the reducer replaces on every action it sees, and what it saw.
    private struct Book: Sendable {
        var life: Life
        var values: [Int] = []
    }

    private static func reducer(_ census: LifeCensus) -> Reducer<Book, Int> {
        { book, action in
            book.life = Life(action, in: census)
            book.values.append(action)
        }
    }

    @Test func everyStateOfRootChildrenAndViewsDiesOnceAndNoneIsKeptStale() async {
        // Caches of every kind: the root's, a child with a child below it (made when the child below
        // reads it), a leaf child with an observer (none), a mapped node with a child (always), views
        // without children. Each reducer replaces its life on every action it sees: a stale copy kept
        // anywhere would keep an old life alive.
        let census = LifeCensus()
        var root: StateStore<Book, Int>? = StateStore(Book(life: Life(-1, in: census)), reducer: Self.reducer(census))
        var middle: StateStore<(Book, Book), Int>? = root!.with(
            Book(life: Life(-2, in: census)),
            reducer: Self.reducer(census)
        )
        var grandchild: StateStore<((Book, Book), Book), Int>? = middle!.with(
            Book(life: Life(-3, in: census)),
            reducer: Self.reducer(census)
        )
        var leaf: StateStore<(Book, Book), Int>? = root!.with(
            Book(life: Life(-4, in: census)),
            reducer: Self.reducer(census)
        )
        var view: StateStore<Book, Int>? = root!.map(state: { $0 })
        var viewChild: StateStore<(Book, Book), Int>? = view!.with(
            Book(life: Life(-5, in: census)),
            reducer: Self.reducer(census)
        )
        var actionView: StateStore<Book, String>? = root!.map(actions: { (text: String) in Int(text) ?? 0 })
        let seen = LockedValue<[String: Int]>([:])
        let subscriptions = [
            leaf!.subscribe { state in seen.withLock { $0["leaf"] = state.0.life.value } },
            grandchild!.subscribe { state in seen.withLock { $0["grandchild"] = state.0.0.life.value } },
            viewChild!.subscribe { state in seen.withLock { $0["viewChild"] = state.0.life.value } },
            view!.subscribe { state in seen.withLock { $0["view"] = state.life.value } },
        ]
        _ = await grandchild?.state
        // 5 stores with state of their own, a life each.
        #expect(census.alive == 5)

        for value in 0..<600 {
            switch value % 6 {
            case 0: root?.dispatch(value)
            case 1: middle?.dispatch(value)
            case 2: grandchild?.dispatch(value)
            case 3: leaf?.dispatch(value)
            case 4: viewChild?.dispatch(value)
            default: actionView?.dispatch("\(value)")
            }
        }
        do {
            // Scoped: the states read hold the current lives until the tree is released below.
            let state = await grandchild!.state
            let (rootBook, middleBook) = state.0
            #expect(rootBook.life.value == 599 && rootBook.values == Array(0..<600))
            #expect(middleBook.life.value == 596 && middleBook.values == (0..<600).filter { [1, 2].contains($0 % 6) })
            #expect(state.1.life.value == 596 && state.1.values == (0..<600).filter { $0 % 6 == 2 })
        }
        #expect(await leaf!.state.1.life.value == 597)
        #expect(await viewChild!.state.1.life.value == 598)
        #expect(await view!.state.life.value == 599)
        #expect(await actionView!.state.life.value == 599)
        let lastSeen = seen.withLock { $0 }
        #expect(lastSeen == ["leaf": 599, "grandchild": 599, "viewChild": 599, "view": 599])
        // The current lives only: no cache, observer or finished action keeps an older state.
        #expect(census.alive == 5)

        for subscription in subscriptions {
            subscription.cancel()
        }
        root = nil
        middle = nil
        grandchild = nil
        leaf = nil
        view = nil
        viewChild = nil
        actionView = nil
        await census.waitUntilNoneAlive()
        #expect(census.alive == 0 && !census.wentNegative)
        #expect(census.made == 5 + 600 + 200 + 100 + 100 + 100)
    }

    @Test func aChildsStateReadAfterItsParentChangedIsCurrent() async {
        // A leaf (no cache), a child whose grandchild made it cache its state, the same child once the
        // grandchild is gone (its cache stays, and must be brought up to date on read), a child of a view.
        let census = LifeCensus()
        let root = StateStore(Book(life: Life(-1, in: census)), reducer: Self.reducer(census))
        let leaf = root.with(0) { count, _ in count += 1 }
        let middle = root.with(0) { count, _ in count += 1 }
        var grandchild: StateStore<((Book, Int), Int), Int>? = middle.with(0) { count, _ in count += 1 }
        let viewChild = root.map(state: { $0.life.value }).with(0) { count, _ in count += 1 }
        let weakMiddle = middle.weakStore()

        for value in 0..<3 {
            root.dispatch(value)
            #expect(await leaf.state.0.life.value == value)
            #expect(await grandchild!.state.0.0.life.value == value)
            #expect(await middle.state.0.life.value == value)
            #expect(await weakMiddle.state?.0.life.value == value)
            #expect(await viewChild.state.0 == value)
        }
        middle.dispatch(10)
        let grand = await grandchild!.state
        #expect(grand.0.1 == 1 && grand.0.0.life.value == 10 && grand.0.0.values.last == 10)
        grandchild = nil
        await settle(root.queue)
        for value in 20..<23 {
            root.dispatch(value)
            let pair = await middle.state
            #expect(pair.0.life.value == value && pair.1 == 1)
            #expect(pair.0.values.last == value)
            #expect(await weakMiddle.state?.0.life.value == value)
            let leafState = await leaf.state
            #expect(leafState.0.life.value == value && leafState.1 == 0)
            #expect(await viewChild.state.0 == value)
        }
        withExtendedLifetime((root, leaf, middle, viewChild)) {}
    }

    // MARK: After reduce

    /// A value an after-reduce step drains: `isDirty` says it has work.
    private struct Journal: Sendable {
        var tag: Int8 = 0
        var isDirty = false
        var pending: [Int] = []
        var drained: [Int] = []
    }

    /// A node's own state with the journal away from its start, behind a class reference.
    private struct Ledger: Sendable {
        var life: Life
        var label = "ledger"
        var journal = Journal()
    }

    /// Even actions write to the journal (and set its flag); odd ones only replace the life.
    private static func ledgerReducer(_ census: LifeCensus) -> Reducer<Ledger, Int> {
        { ledger, action in
            ledger.life = Life(action, in: census)
            if action.isMultiple(of: 2) {
                ledger.journal.pending.append(action)
                ledger.journal.isDirty = true
            }
        }
    }

    @Test(arguments: [false, true])
    func aSoleStepRunsExactlyWhenItsFlagIsSetAndTheCachesBelowShowWhatItDid(atRoot: Bool) async throws {
        let census = LifeCensus()
        let runs = LockedValue<[[Int]]>([])
        var root: StateStore<Ledger, Int>? = StateStore(
            Ledger(life: Life(-1, in: census)),
            reducer: Self.ledgerReducer(census)
        )
        var child: StateStore<(Ledger, Ledger), Int>? = root!.with(
            Ledger(life: Life(-2, in: census)),
            reducer: Self.ledgerReducer(census)
        )
        // A child below makes the child cache its state; the walk must carry the step's work into it.
        var below: StateStore<((Ledger, Ledger), Int), Int>? = child!.with(0) { _, _ in }
        let seen = LockedValue<[[Int]]>([])
        let subscription = below!.subscribe { state in
            let journal = atRoot ? state.0.0.journal : state.0.1.journal
            seen.withLock { $0.append(journal.pending + [-1] + journal.drained) }
        }
        _ = await below?.state
        // Set before the step is added: it runs once when added.
        await child?.send(2)

        let step: AfterReduceStep<Journal> = { journal in
            runs.withLock { $0.append(journal.pending) }
            journal.drained += journal.pending
            journal.pending = []
            journal.isDirty = false
        }
        let flag = try #require(MemoryLayout<Journal>.offset(of: \.isDirty))
        let added = StateRecorder<Bool>()
        if atRoot {
            let offset = try #require(root?.ownStateOffset(of: \.journal))
            #expect(offset > 0)
            root?.withTreeAccess { access in
                access.addAfterReduce(at: offset, when: flag, step)
                added.record(true)
            }
        } else {
            let offset = try #require(child?.ownStateOffset(of: \.1.journal))
            #expect(offset > 0)
            child?.withTreeAccess { access in
                access.addAfterReduce(at: offset, when: flag, step)
                added.record(true)
            }
        }
        _ = await added.waitFor(count: 1)
        #expect(runs.withLock { $0 } == [[2]])

        // Odd actions leave the flag clear: the step must not run for them.
        for action in [3, 5, 4, 7, 6, 8, 9] {
            let state = await child!.send(action)
            let journal = atRoot ? state.0.journal : state.1.journal
            #expect(!journal.isDirty && journal.pending.isEmpty)
            if action.isMultiple(of: 2) {
                #expect(journal.drained.last == action)
            }
        }
        #expect(runs.withLock { $0 } == [[2], [4], [6], [8]])
        do {
            // Scoped: the state read holds the current lives until the tree is released below.
            let state = await below!.state
            let journal = atRoot ? state.0.0.journal : state.0.1.journal
            #expect(journal.drained == [2, 4, 6, 8] && journal.pending.isEmpty && !journal.isDirty)
        }
        // What the observer below saw after each action: drained already, never pending.
        #expect(seen.withLock { $0.last } == [-1, 2, 4, 6, 8])
        #expect(seen.withLock { $0 }.dropFirst(2).allSatisfy { $0.first == -1 })

        subscription.cancel()
        root = nil
        child = nil
        below = nil
        await census.waitUntilNoneAlive()
        #expect(!census.wentNegative && census.made == 2 + 2 * 8)
    }
}
