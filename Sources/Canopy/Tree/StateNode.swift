import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A tree node with a state of type `State` and observers of it: the root, a child, or a mapped node.
///
/// The root and a mapped node cache their state (for the root, the cache *is* the state); a child
/// caches its state once a node below it reads it (``ChildNode``). The engine keeps a cache current while
/// the node is attached; otherwise ``state`` computes the state on demand.
///
/// Like every node, it is not `Sendable`: its `var`s, its box of extras and the cache in it are the tree
/// queue's (``TreeNode``), apart from a root's `init`, which makes the box and the cache before anything
/// else can reach the node, and the node's `deinit`, on whatever thread lets go of it last.
class StateNode<State: Sendable, Action: Sendable>: ActionNode<Action> {
    /// What only some nodes need of their own types (a cached state, a list of observers, what
    /// `use(_:resolvers:)` attached), once the node needs one of them: one reference to a box
    /// (``NodeExtras``), kept out of every node.
    // Set once, by `madeStateExtras`, and never replaced, so borrowed reads stay valid.
    private final var stateExtras: NodeExtras<State, Action>?

    /// On the queue: whether the node has made either of its boxes, this one or the engine's (tests look
    /// at it).
    final var hasExtras: Bool {
        stateExtras != nil || extras != nil
    }

    /// The node's box, made now if it has none yet.
    private final var madeStateExtras: NodeExtras<State, Action> {
        if let stateExtras {
            return stateExtras
        }
        let made = NodeExtras<State, Action>()
        stateExtras = made
        return made
    }

    /// Where each observer found by its id is in the list, once the list holds more than
    /// ``observerIndexThreshold`` observers, so that subscribing an app's ``Observer`` never scans a long
    /// list: a search for an id that no observer has is then one probe, even when the index holds
    /// nothing. A subscription found through its gate is not in it
    /// (``ObserverIdentity``). Most nodes have one or two observers, and need none.
    private final var observerIndex: ObserverIndex? {
        get { stateExtras?.observerIndex }
        set {
            if newValue != nil || stateExtras != nil {
                madeStateExtras.observerIndex = newValue
            }
        }
    }

    /// The node's list of observers, once it has had two.
    private final var observerList: ObserverStorage<State>? {
        get { stateExtras?.observerList }
        set { madeStateExtras.observerList = newValue }
    }

    // MARK: State

    /// On the queue: the current state.
    final var state: State {
        if isAttached, hasCache {
            // Current while the node is attached.
            return readCache { copy $0 }
        }
        refreshAncestors()
        return freshState()
    }

    /// The root's cached state, which is its state, made with the node (``RootNode``); `nil` in other
    /// nodes, which keep theirs in the box (``NodeExtras/cache``), made when first needed.
    ///
    /// A `let`, so that code reading it across a call borrows it, with no retain: the box's `var`, and
    /// the cache in it, cost a retain and a release around every such use (about 40 instructions), where
    /// a node's children read the cache once each per action. The root is every tree's busiest parent.
    final let rootCache: StateCache<State>?

    init(
        tree: StoreTree,
        parent: TreeNode?,
        sharedInbox: Inbox<Action>?,
        rootCache: StateCache<State>? = nil,
        translatesActions: Bool = false
    ) {
        self.rootCache = rootCache
        super.init(tree: tree, parent: parent, sharedInbox: sharedInbox, translatesActions: translatesActions)
    }

    /// Runs `body` with the cached state, which the caller knows the node has: the root's, a mapped
    /// node's, or that of a node whose child reads it (an attached child's parent, an ancestor that
    /// ``refreshAncestors()`` brought up to date).
    @inline(__always)
    final func readCache<Result>(_ body: (borrowing State) -> Result) -> Result {
        // Lent from the `inout` binding, as `StateCache.read` lends it.
        modifyCache { state in body(state) }
    }

    /// Runs `body` with the cached state to mutate in place, which the caller knows the node has (as
    /// ``readCache(_:)``).
    @inline(__always)
    final func modifyCache<Result>(_ body: (inout State) -> Result) -> Result {
        // Not bound with `if let`, which copies the reference: the chain borrows the node's `let`.
        if rootCache != nil {
            return rootCache!.modify(body)
        }
        guard let cache = stateExtras?.cache else {
            preconditionFailure("Internal inconsistency: \(type(of: self)) used a cache it has not made")
        }
        return cache.modify(body)
    }

    /// Whether the node has made its cache.
    final var hasCache: Bool {
        rootCache != nil || stateExtras?.cache != nil
    }

    /// Makes the cache, holding `state`: in `init`, before the node is shared, or on the queue.
    final func makeCache(_ state: State) {
        let extras = madeStateExtras
        assert(!hasCache, "Internal inconsistency: \(type(of: self)) made its cache twice")
        extras.cache = StateCache.make(state)
    }

    /// On the queue, in a node other than the root: runs `body` with the node's cache, if it has one, and
    /// its list of observers, if it has one, then removes the observers in the slots `body` returns,
    /// which answered `.dead`. The list is held for the call: as far as the compiler can tell, an
    /// observer could replace it.
    @inline(__always)
    final func withCacheAndObserverList(
        _ body: (StateCache<State>?, _ list: ObserverStorage<State>?) -> [Int]?
    ) {
        tree.assertOnQueue()
        assert(rootCache == nil, "Internal inconsistency: the root's cache is not in its box")
        // A node without a list (most children: their observer is in their cell) passes a literal `nil`,
        // which costs no release after the call.
        let dead: [Int]?
        if let list = stateExtras?.observerList {
            dead = body(stateExtras?.cache, list)
        } else {
            dead = body(stateExtras?.cache, nil)
        }
        if let dead {
            removeDeadObservers(dead)
        }
    }

    /// On the queue: replaces the cached state, making the cache if there is none.
    final func setCachedState(_ state: consuming State) {
        tree.assertOnQueue()
        assert(rootCache == nil, "Internal inconsistency: the root's cache is not in its box")
        if let cache = stateExtras?.cache {
            // Swapped, not assigned: the closure cannot consume `state`, and a copy would retain what it
            // holds; the old state goes with `state`.
            cache.modify { swap(&$0, &state) }
        } else {
            makeCache(state)
        }
    }

    /// Brings the caches of the ancestors up to date, from the nearest one whose cache is current
    /// downwards, so that this node can compute its state from its parent's cache. Iterative, so any
    /// depth works.
    private final func refreshAncestors() {
        var chain: [TreeNode] = []
        var node = parentNode
        while let current = node, !current.hasCurrentCache {
            chain.append(current)
            node = current.parentNode
        }
        for node in chain.reversed() {
            node.recompute(makingCache: true)
        }
    }

    /// On the queue: the node's state computed from its parent's cache, which is current: written into
    /// the node's cache if it has one, returned without one otherwise. The root, whose cache is always
    /// current, never needs it.
    func freshState() -> State {
        recompute(makingCache: true)
        return readCache { copy $0 }
    }

    override final var hasCurrentCache: Bool {
        isAttached && hasCache
    }

    // MARK: Observers

    /// On the queue: calls the observers in the node's list, if it has one, with the cached state. A child
    /// overrides it: its first observer is in its cell.
    override func notifyObservers() {
        // Checked first, so that a node that has no observer (a root whose stores only dispatch) does not
        // reach its cache at all. A list whose observers have all gone stays, and calls nothing while it
        // is empty.
        guard let list = stateExtras?.observerList else { return }
        guard let dead = readCache({ list.notifyIfAnyLive($0) }) else { return }
        removeDeadObservers(dead)
    }

    /// On the queue: removes the observers in the `dead` slots, which answered `.dead`.
    private final func removeDeadObservers(_ dead: [Int]) {
        // Compacting renumbers the slots, so it waits until every dead observer is gone.
        for slot in dead {
            removeObserver(at: slot, compacting: false)
        }
        compactObservers()
    }

    /// Whether the node keeps its first observer inside itself: a child does, in its cell (``ChildCell``),
    /// where a list would take a heap block of its own (W4 counts the bytes of every child store). The
    /// root and mapped nodes, few in a tree, keep theirs in a list from the first.
    var keepsObserverInside: Bool {
        false
    }

    /// On the queue, for a node that ``keepsObserverInside``: runs `edit` on the observer inside it.
    func editObserverInside(_ edit: (inout NodeObservers<State>) -> Void) {
        preconditionFailure("Internal inconsistency: \(type(of: self)) keeps no observer inside")
    }

    /// ``editObserverInside(_:)``, returning what `edit` returns; `nil` for a node that keeps no observer
    /// inside.
    @inline(__always)
    private final func withObserverInside<Result>(_ edit: (inout NodeObservers<State>) -> Result?) -> Result? {
        guard keepsObserverInside else { return nil }
        var result: Result?
        editObserverInside { result = edit(&$0) }
        return result
    }

    /// On the queue: adds an observer that calls `observe`, or runs `filter` in its place in a list
    /// (``ObserverRecord``), unless its `identity` is an id that an observer of the node has; then calls
    /// it with the current state.
    ///
    /// A subscription's observer, found through its gate, is left out of the index of ids, and its gate
    /// learns its slot (``CallGate/slot``). In a list, its record holds the gate, and an id that nothing
    /// looks for (``SubscriptionIDs/unlooked``); in a child's cell, which holds no gate, it has the id
    /// made from its gate (``CallGate/observerID``), which a cancel compares.
    final func addObserver(
        _ identity: ObserverIdentity,
        observe: @escaping Observer<State>.StateHandler,
        filter: AtomicProjectionFilter<State>?
    ) {
        tree.assertOnQueue()
        let slot: Int
        switch identity {
        case .id(let id):
            // A record with a check is found through the check's gate: no index would hold it.
            precondition(filter == nil, "Internal inconsistency: an observer found by its id came with a dedup check")
            if let found = self.slot(of: id) {
                slot = found
            } else {
                // A node that nothing keeps any more is on its way out: like a freed one, it takes no
                // observer.
                guard attach() else { return }
                slot = place(listID: id, cellID: id, gate: nil, observe: observe, filter: filter)
                index(id, at: slot)
            }
        case .gate(let gate):
            guard attach() else { return }
            let listID = SubscriptionIDs.unlooked
            slot = place(listID: listID, cellID: gate.observerID, gate: gate, observe: observe, filter: filter)
        }
        let current = state
        let outer = tree.callingThread.enter()
        let status = observe(current)
        tree.callingThread.leave(restoring: outer)
        if status == .dead {
            removeObserver(at: slot)
        }
    }

    /// Puts a new observer in the node's list, with `listID`, or in its cell, with `cellID`, which is
    /// made only then; tells `gate`, if any, the slot, and returns it.
    private final func place(
        listID: UUID,
        cellID: @autoclosure () -> UUID,
        gate: CallGate?,
        observe: @escaping Observer<State>.StateHandler,
        filter: AtomicProjectionFilter<State>?
    ) -> Int {
        // The observer is made where it is kept: one made here and copied there would be destroyed
        // here afterwards, through its metadata (a lookup by hashing, code generic over the state).
        let slot: Int
        if let list = listWithRoomForObserver() {
            slot = list.append(id: listID, filter: filter, gate: gate, observe: observe)
        } else {
            editObserverInside { $0.single = Observer(id: cellID(), observe: observe) }
            gate?.slot = 0
            slot = 0
        }
        listenerAdded()
        return slot
    }

    /// Adds the observer with `id`, just put in `slot`, to the index of ids, or makes the index once the
    /// node has enough observers to need one.
    private final func index(_ id: UUID, at slot: Int) {
        if let observerIndex {
            if !observerIndex.insert(id, slot: slot) {
                rebuildObserverIndex()
            }
        } else if observerCount > Self.observerIndexThreshold {
            rebuildObserverIndex()
        }
    }

    override final var observerCount: Int {
        // A read that calls nothing: the compiler borrows the box and the list, with no retain.
        stateExtras?.observerList?.live ?? withObserverInside { $0.live } ?? 0
    }

    override final func compactObservers() {
        tree.assertOnQueue()
        listenersChanged()
        compactObserversIfSparse()
        detachIfUnused()
    }

    /// Up to this many observers, finding one scans the list (at most twice as many slots, since a list
    /// that is half empty is compacted); past it, an index finds it.
    private static var observerIndexThreshold: Int { 8 }

    private final func slot(of id: UUID) -> Int? {
        guard let list = observerList else {
            return withObserverInside { $0.slot(of: id) }
        }
        // The index exists only beside a list (a node with more observers than a scan finds quickly).
        if let observerIndex {
            return observerIndex.slot(of: id, in: list)
        }
        return list.slot(of: id)
    }

    override final func removeObserver(of gate: CallGate) {
        tree.assertOnQueue()
        let slot = gate.slot
        // The slot may hold another observer by now, or none: the gate's observer may have gone already
        // (it answered `.dead`), its slot emptied, compacted away or given to another.
        let holds =
            if let list = observerList {
                list.holdsObserver(of: gate, at: slot)
            } else {
                withObserverInside { $0.slot(of: gate.observerID) == slot } ?? false
            }
        if holds {
            removeObserver(at: slot, compacting: false)
        }
    }

    private final func removeObserver(at slot: Int, compacting: Bool = true) {
        let removed: RemovedObserver?
        if let list = observerList {
            removed = list.remove(at: slot)
        } else {
            removed = withObserverInside { $0.remove(at: slot) }
        }
        guard let removed else { return }
        if case .indexed(let id) = removed {
            observerIndex?.remove(id, slot: slot)
        }
        if compacting {
            compactObservers()
        }
    }

    private final func compactObserversIfSparse() {
        guard let list = observerList, list.isSparse else { return }
        observerList = list.compacted(capacity: list.live)
        rebuildObserverIndex()
    }

    /// Makes room for one more observer: in the list, grown if full, or, for a child that has had no more
    /// than one, in its cell (the root and mapped nodes always use the list). A child's second observer
    /// makes its list, with the first in slot 0.
    ///
    /// - Returns: The list to append to, or `nil` when the observer goes in the child's cell.
    private final func listWithRoomForObserver() -> ObserverStorage<State>? {
        // Most nodes have one observer, which the node holds; the list grows when it must.
        let list: ObserverStorage<State>
        if let existing = observerList {
            list = existing
        } else if !keepsObserverInside {
            let made = ObserverStorage<State>.make(capacity: 1)
            observerList = made
            return made
        } else if let made = withObserverInside({ $0.movedIntoList() }) {
            observerList = made
            list = made
        } else {
            return nil
        }
        guard !list.hasRoom else { return list }
        if list.live == list.used {
            // No empty slot: grow the list and keep every slot (the index stays as it is).
            observerList = list.grown(capacity: Self.grownCapacity(list.used))
        } else {
            // Compacting renumbers the slots: the index is made again.
            observerList = list.compacted(capacity: Self.grownCapacity(list.live))
            rebuildObserverIndex()
        }
        return observerList
    }

    /// The room to give a full list of `count` observers: half as much again (and at least one more).
    ///
    /// Growing by 1.5 rather than 2 leaves a long list a sixth empty on average instead of a quarter,
    /// for about one more move per observer over the list's growth: moving a slot costs a few
    /// instructions, and a slot is 40 bytes per observer for as long as the list lives (``ObserverRecord``).
    private static func grownCapacity(_ count: Int) -> Int {
        count + Swift.max(1, count / 2)
    }

    private final func rebuildObserverIndex() {
        guard let list = observerList, list.live > Self.observerIndexThreshold else {
            observerIndex = nil
            return
        }
        observerIndex = ObserverIndex.make(for: list)
    }

    /// The number of observers (tests look at it).
    final var observerListCount: Int {
        tree.assertOnQueue()
        return observerCount
    }

    /// From any thread: turns a completion for a `DispatchOutcome` into one the engine calls, on the
    /// queue, with what became of an action sent to the node `reference` reaches; the state is read then.
    static func outcomeHandler(
        for reference: NodeReference<StateNode<State, Action>>,
        _ completion: @escaping @Sendable (DispatchOutcome<State>) -> Void
    ) -> @Sendable (ProcessOutcome) -> Void {
        { outcome in
            switch outcome {
            case .reduced:
                if let node = reference.ifInTree {
                    completion(.reduced(node.withNode { $0.state }))
                } else {
                    completion(.failed(StoreReleasedError()))
                }
            case .blocked:
                completion(.blocked)
            case .failed(let error):
                completion(.failed(error))
            }
        }
    }

    // MARK: Middleware

    /// What `use(_:resolvers:)` attached so far.
    private final var middlewareSetup: MiddlewareSetup<State, Action>? {
        get { stateExtras?.middlewareSetup }
        set { madeStateExtras.middlewareSetup = newValue }
    }

    /// On the queue: adds `middlewares` (after those already attached) and `resolvers`, and rebuilds the
    /// node's chain.
    final func use(_ middlewares: [Middleware<State, Action>], resolvers: [ErrorResolver<State, Action>]) {
        tree.assertOnQueue()
        let setup = MiddlewareSetup(
            middlewares: (middlewareSetup?.middlewares ?? []) + middlewares,
            resolvers: (middlewareSetup?.resolvers ?? []) + resolvers
        )
        middlewareSetup = setup
        guard !setup.middlewares.isEmpty else { return }
        let reference = NodeReference(self)
        let handle = WeakHandle(reference)
        let tree = self.tree
        let ownID = storeID
        let ownRoute = WeakReceiver<Action>(NodeReference(self))
        let environment = MiddlewareEnvironment(
            currentTarget: { tree.currentTargetID() ?? ownID },
            owner: MiddlewareEnvironment.Owner(tree: tree, node: self, id: ownID),
            route: {
                let receiver = tree.currentRoute(Action.self) ?? ownRoute
                return { action, entry, run in receiver.send(action, entry: entry, run: run) }
            },
            ownerDepth: depth,
            causes: { tree.queueState.currentCauses },
            queue: tree.queue,
            scheduler: tree.scheduler,
            tasks: tree.tasks,
            diagnostics: tree.diagnostics,
            dispatch: { action, start in
                // Called by a middleware, on the queue: the new action is caused by the current one.
                handle.dispatch(
                    action,
                    entry: EntryContext(middlewareStart: start, causes: tree.queueState.currentCauses),
                    completion: nil
                )
            },
            dispatchIfCurrent: { action, run in handle.dispatch(action, from: run) }
        )
        let chain = MiddlewareChain(
            middlewares: setup.middlewares,
            resolvers: setup.resolvers,
            environment: environment,
            // The chain is the node's: while it runs, the node is alive.
            currentState: { reference.assumingAlive.withNode { $0.state } }
        )
        middleware = chain.nodeMiddleware()
        noteMiddleware()
        tree.middlewareAttached(onlyObserves: chain.onlyObserves)
    }

    @discardableResult
    final func receive(_ action: Action) -> ProcessOutcome {
        tree.process(copyOf: action, at: self)
    }

    override final func execute(_ asyncAction: any AsyncAction) {
        asyncAction.start(resultsTo: WeakHandle(NodeReference(self)))
    }

    // MARK: After reduce

    /// Where the value at `keyPath` lies in the state this node's own reducer mutates, in bytes from its
    /// start; `nil` when it does not lie there (it belongs to an ancestor, or the path goes through a
    /// computed property or a class). The root and children override it.
    func ownStateOffset<Value>(of keyPath: WritableKeyPath<State, Value>) -> Int? {
        nil
    }

    /// On the queue: runs `afterReduce` on this node's own state right after each of the node's
    /// reductions from now on, and once now. Its offset comes from ``ownStateOffset(of:)``.
    func addAfterReduce<Value>(_ afterReduce: AfterReduce<Value>) {
        preconditionFailure("Internal inconsistency: \(type(of: self)) has no state of its own")
    }
}
