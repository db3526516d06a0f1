import Dispatch

/// The root of a store tree: it creates the tree's engine (queue, clock, inbox) and holds the root state,
/// in its cache.
// Safety: Sendable by hand: its one `var` is queue-confined (below), the rest as `StateNode` says.
final class RootNode<State: Sendable, Action: Sendable>: StateNode<State, Action>, @unchecked Sendable {
    // Safety: `reducer` is used only on the tree's queue, like `TreeNode`'s fields.
    /// The root's reducer, followed by its after-reduce steps once some are added.
    @exclusivity(unchecked) private var reducer: Reducer<State, Action>
    /// Runs the reducer and says whether the state changed, when `State` is `Equatable` plain data:
    /// lets the walk down skip the children when an action leaves the root state as it was. Made where
    /// the store's initializer is inlined, compiled for `State` there.
    private let changeCheck: ChangeCheck<State, Action>?
    private let rootInbox: Inbox<Action>

    init(
        initialState: State,
        qos: DispatchQoS,
        scheduler: any DelayScheduler,
        diagnostics: (any StoreDiagnostics)? = nil,
        cycleDetection: CycleDetection = .off,
        reducer: @escaping Reducer<State, Action>,
        changeCheck: ChangeCheck<State, Action>?
    ) {
        let inbox = Inbox<Action>()
        self.rootInbox = inbox
        self.reducer = reducer
        self.changeCheck = changeCheck
        let tree = StoreTree(
            qos: qos,
            scheduler: scheduler,
            inbox: inbox,
            diagnostics: diagnostics,
            cycleDetection: cycleDetection
        )
        super.init(tree: tree, parent: nil, sharesRootInbox: true)
        tree.setRoot(self)
        makeCache(initialState)
    }

    deinit {
        // Work started by id may keep the tree's engine alive through the handles it sends results
        // with; the root going is what ends it.
        tree.tasks.cancelAll()
    }

    override func dispatch(_ action: Action) {
        if tree.detectsCycles, let causes = tree.causesOfDispatchNow {
            push(action, through: self, entry: EntryContext(causes: causes))
            return
        }
        if rootInbox.push(action) {
            scheduleDrain()
        }
    }

    override func drainInbox() {
        tree.drain(rootInbox, root: self)
    }

    // Safety: returns `nil` (the root has no parent); the cache it reduces is the root's own, below.
    override func reduceOwn(_ action: Action) -> Unmanaged<ActionNode<Action>>? {
        tree.assertOnQueue()
        // The root's cache is its state, initialised in `init`.
        if tree.isListenedTo, changeCheck != nil {
            // Safety: the check is a `let` of this node, which the caller holds: borrowed, not retained
            // and released around the reducer's call.
            let check = Unmanaged.passUnretained(changeCheck.unsafelyUnwrapped)
            lastChanged = check._withUnsafeGuaranteedRef { $0.reduce(&cache.pointee, action, &reducer) }
        } else {
            // `lastChanged` stays `true` (it only turns `false` in the branch above): without `==`
            // every action may change the state, and without listeners nobody reads it.
            reduceInPlace(&cache.pointee, action, with: &reducer)
        }
        return nil
    }

    override func refresh(parentChanged: Bool, onPath: Bool) -> Bool {
        lastChanged
    }

    override func visit(parentChanged: Bool, onPath: Bool) -> Bool {
        // The root's cache is its state, always current: the visit only notifies.
        notifyObservers()
        return lastChanged
    }

    // MARK: After reduce

    override func ownStateOffset<Value>(of keyPath: WritableKeyPath<State, Value>) -> Int? {
        MemoryLayout<State>.offset(of: keyPath)
    }

    override func addAfterReduce<Value>(_ afterReduce: AfterReduce<Value>) {
        tree.assertOnQueue()
        let reduce = reducer
        // Safety: the reducer is only ever called on the cache (`reduceOwn`), and lives no longer than the node,
        // whose box frees the cache when it is freed with the node: the address can be taken once, here.
        // Taking it from the reducer's `inout` argument instead costs a generic call per action.
        let state = StateAddress(UnsafeMutableRawPointer(cache))
        reducer = { root, action in
            reduce(&root, action)
            afterReduce.run(at: state.pointer)
        }
        afterReduce.run(at: state.pointer)
        // The step may have changed the state: what is cached of it below follows.
        refreshCachesBelow()
    }
}
