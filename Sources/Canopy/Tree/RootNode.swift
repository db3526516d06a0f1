import Dispatch

/// The root of a store tree: it creates the tree's engine (queue, clock, inbox) and holds the root state,
/// in its cache.
final class RootNode<State: Sendable, Action: Sendable>: StateNode<State, Action> {
    /// The root's reducer.
    private let reducer: Reducer<State, Action>
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
        super.init(tree: tree, parent: nil, sharedInbox: inbox, rootCache: StateCache.make(initialState))
        tree.setRoot(self)
    }

    deinit {
        // Work started by id may keep the tree's engine alive through the handles it sends results
        // with; the root going is what ends it.
        tree.tasks.cancelAll()
    }

    override func drainInbox(in turn: borrowing DrainTurn) {
        // While its drain runs, the root is kept as a store keeps it: the root's plain dispatch leaves no
        // handle in the inbox (``ActionNode/dispatchToRoot(_:)``), so an action may come from a store that
        // is gone by its turn, and what the action sets off there (its completion, a middleware's
        // follow-up, an effect's result through a weak handle) must reach the root as it would have when
        // the action was sent. Twice per drain, not per action.
        keep()
        defer { link.letGo() }
        tree.drain(rootInbox, root: self, in: turn)
    }

    override func reduceOwn(_ action: Action) -> ActionNode<Action>? {
        tree.assertOnQueue()
        // The root's cache is its state, made in `init`.
        reduce(with: reducer, action)
        // The check and the steps reach the state apart: the check's closure is small enough to be
        // compiled into this code, where one closure doing both was not (about 18 instructions per
        // action with a persistence writer).
        if hasAfterReduceSteps, afterReduceStepsHaveWork({ rootCache!.bool(atByteOffset: $0) }) {
            modifyCache { runAfterReduceSteps(on: &$0) }
        }
        return nil
    }

    /// Runs `reducer` on the state, and, when something listens and `State` can be compared, notes
    /// whether the state changed.
    @inline(__always)
    private func reduce(with reducer: Reducer<State, Action>, _ action: Action) {
        // Not bound with `if let`: the binding copies the check, a retain and a release per action, where
        // the optional chain borrows the node's `let`.
        if tree.queueState.isListenedTo, changeCheck != nil {
            lastChanged = modifyCache { changeCheck?.reduce(&$0, action, reducer) } ?? true
        } else {
            // `lastChanged` stays `true` (it only turns `false` in the branch above): without `==`
            // every action may change the state, and without listeners nobody reads it.
            modifyCache { reducer(&$0, action) }
        }
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
        addAfterReduceStep(
            { (state: inout State) in afterReduce.run(on: &state) },
            flagAt: afterReduce.offset + afterReduce.flag
        )
        modifyCache { afterReduce.run(on: &$0) }
        // The step may have changed the state: what is cached of it below follows.
        refreshCachesBelow()
    }
}
