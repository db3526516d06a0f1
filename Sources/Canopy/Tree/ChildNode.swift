import Synchronization

/// A child made with `with(_:reducer:)`: its state is the parent's state paired with its own local state.
///
/// It holds its parent strongly. Its stores hold it through one ``NodeHandle``; its parent's list holds
/// it only while it is attached and something else keeps it, so releasing the last store frees the local
/// state right away, on the tree's queue (``TreeNode/link``). The pairing is a closure made where
/// `with(_:reducer:)` is inlined, so it is compiled for the concrete types (by the first such call for
/// these types), and shared by the children of the same types (``ChildKind``): it hands the pair to the observers, and writes it into the node's
/// cache when there is one, with no runtime type lookup and no copy of either part through the
/// unspecialised code.
///
/// A child makes its cache only when a node below it reads it (a child of its own attaches, or a store
/// below reads its state): a leaf, the usual child, has none, and its ``state`` is composed when read.
final class ChildNode<ParentState: Sendable, Local: Sendable, State: Sendable, Action: Sendable>:
    StateNode<State, Action>
{
    /// The parent, which this node keeps.
    let parent: StateNode<ParentState, Action>
    /// The child's reducer.
    private let reducer: Reducer<Local, Action>
    /// The code that uses `cell`, compiled for the child's types and shared by the children of its types.
    private let kind: ChildKind<ParentState, Local, State, Action>
    /// The local state and the first observer (``ChildCell``). Last: its size depends on `Local`, so the
    /// fields after it would be found through offsets read from the class's metadata on every use, where
    /// those before it have offsets fixed when compiled.
    private let cell: ChildKind<ParentState, Local, State, Action>.Cell

    init(
        parent boundParent: QueueBound<StateNode<ParentState, Action>>,
        initialState: Local,
        reducer: @escaping Reducer<Local, Action>,
        kind: ChildKind<ParentState, Local, State, Action>
    ) {
        let parent = boundParent.parentForNewNode
        self.parent = parent
        self.cell = Mutex(ChildCell(local: initialState))
        self.reducer = reducer
        self.kind = kind
        super.init(tree: parent.tree, parent: parent, sharedInbox: parent.sharedInbox)
    }

    /// Runs `body` with the kind, passed as an argument: the compiler borrows it, and the closure of it
    /// that `body` calls, for the call. Called on the property directly (`kind.compose(…)`), each closure
    /// was retained and released around its call (per child with a raw observer 133 → 162).
    @inline(__always)
    private func withKind<Result>(_ body: (ChildKind<ParentState, Local, State, Action>) -> Result) -> Result {
        body(kind)
    }

    override func reduceOwn(_ action: Action) -> ActionNode<Action>? {
        lastChanged = withKind { kind in
            // Only a node with children has a use for the change check: a leaf's visit is the same
            // whether its state changed or not, and the check costs a copy and a comparison.
            let changeCheck = hasChildren ? kind.changeCheck : nil
            guard hasAfterReduceSteps else {
                return kind.reduce(cell, action, reducer, changeCheck, nil)
            }
            return kind.reduce(cell, action, reducer, changeCheck) { local in
                let hasWork = self.afterReduceStepsHaveWork { offset in
                    // Safety: the address of the local state, locked, for the call only; `offset` is
                    // that of a `Bool` inside it (checked to lie inside its value when the step was
                    // added).
                    withUnsafeMutablePointer(to: &local) {
                        UnsafeRawPointer($0).load(fromByteOffset: offset, as: Bool.self)
                    }
                }
                if hasWork {
                    self.runAfterReduceSteps(on: &local)
                }
            }
        }
        return parent
    }

    deinit {
        letGoOfParent(parent)
    }

    override var parentNode: TreeNode? {
        parent
    }

    override func untranslatedParent() -> ActionNode<Action>? {
        parent
    }

    override func visit(parentChanged: Bool, onPath: Bool) -> Bool {
        guard parentChanged || (onPath && lastChanged) else {
            // Unchanged: a node with a cache hands it to its observers; a leaf composes its state again
            // for them, in code compiled for its type, which costs less than copying a cache out.
            if hasCache {
                notifyObservers()
            } else {
                composeAndNotify()
            }
            return false
        }
        // The composition hands the new state to the observers as it has it, compiled for its type.
        composeAndNotify()
        return true
    }

    /// Calls the observers with the cached state: `visit` calls it only for a node that has its cache.
    override func notifyObservers() {
        withCacheAndObserverList { cache, list in
            guard let cache else {
                preconditionFailure("Internal inconsistency: \(type(of: self)) notified from no cache")
            }
            return cache.read { state in
                withKind { kind in kind.notify(cell, state, list) }
            }
        }
    }

    override func recompute(makingCache: Bool) {
        if hasCache {
            withCacheAndObserverList { cache, _ in
                cache?.modify { compose(into: &$0, notifying: false, nil) }
            }
        } else if makingCache {
            makeCache(madeState())
        }
    }

    override func freshState() -> State {
        guard !hasCache else { return super.freshState() }
        return madeState()
    }

    /// The state made of the parent's cache and the local state (``ChildKind/make``).
    private func madeState() -> State {
        // The parent's cache exists and is current (as in `composeAndNotify()`).
        parent.readCache { parentState in
            withKind { kind in kind.make(parentState, cell) }
        }
    }

    /// Composes the state of the parent's and the local state, into the cache if the node has one,
    /// and calls the observers with it.
    @inline(__always)
    private func composeAndNotify() {
        // The parent's cache is current: the walk down refreshes a parent before its children, and
        // `refreshAncestors` an ancestor before its descendants.
        withCacheAndObserverList { cache, list in
            guard let cache else {
                return parent.readCache { parentState in
                    withKind { kind in kind.composeUncached(parentState, cell, list) }
                }
            }
            return cache.modify { compose(into: &$0, notifying: true, list) }
        }
    }

    /// Runs the kind's composition on the parent's cache and the cell, into `state`, the node's cached
    /// state (``ChildKind/compose``).
    // The parent's cache exists (made when this child attached or by `refreshAncestors`, see
    // `composeAndNotify`) and is the parent's, which this node holds.
    @inline(__always)
    private func compose(
        into state: inout State,
        notifying: Bool,
        _ list: ObserverStorage<State>?
    ) -> [Int]? {
        parent.readCache { parentState in
            withKind { kind in kind.compose(parentState, cell, &state, notifying, list) }
        }
    }

    // MARK: The observer in the cell

    override var keepsObserverInside: Bool {
        true
    }

    override func editObserverInside(_ edit: (inout NodeObservers<State>) -> Void) {
        kind.editObservers(cell, edit)
    }

    // MARK: After reduce

    /// The offset within `local`: the key path must lead into the local part of `(ParentState, Local)`,
    /// the only state `with(_:reducer:)` composes.
    override func ownStateOffset<Value>(of keyPath: WritableKeyPath<State, Value>) -> Int? {
        guard State.self == (ParentState, Local).self,
            let offset = MemoryLayout<State>.offset(of: keyPath),
            let localStart = MemoryLayout<(ParentState, Local)>.offset(of: \(ParentState, Local).1),
            offset >= localStart,
            offset + MemoryLayout<Value>.size <= localStart + MemoryLayout<Local>.size
        else { return nil }
        return offset - localStart
    }

    override func addAfterReduce<Value>(_ afterReduce: AfterReduce<Value>) {
        tree.assertOnQueue()
        addAfterReduceStep(
            { (local: inout Local) in afterReduce.run(on: &local) },
            flagAt: afterReduce.offset + afterReduce.flag
        )
        cell.withLock { afterReduce.run(on: &$0.local) }
        // The step may have changed the local state: what is cached of it here and below follows.
        if hasCache {
            recompute(makingCache: false)
            refreshCachesBelow()
        }
    }
}
