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
// Safety: Sendable by hand: its `var`s are queue-confined, as `StateNode`'s (see the note below).
final class ChildNode<ParentState: Sendable, Local: Sendable, State: Sendable, Action: Sendable>:
    StateNode<State, Action>, @unchecked Sendable
{
    /// The child's reducer.
    private let reducer: Reducer<Local, Action>
    /// How the child's state is composed and its change checked, shared by the children of its types.
    private let kind: ChildKind<ParentState, Local, State, Action>
    /// Last: its size depends on `Local`, so the fields after it would be found through offsets read
    /// from the class's metadata on every use, where those before it have offsets fixed when compiled.
    // Safety: queue-only (see `reducer`); passed `inout` to the reducer and the composition, which cannot
    // reach this node again synchronously (every way back into the tree goes through the inbox).
    @exclusivity(unchecked) private var local: Local

    /// The parent, typed: `parentNode`, which `init` sets to it (a second stored reference would cost
    /// every child store 8 bytes).
    var parent: StateNode<ParentState, Action> {
        // Safety: `init` passes `parent`, a `StateNode<ParentState, Action>`, as `parentNode`, a `let`.
        unsafeDowncast(parentNode!, to: StateNode<ParentState, Action>.self)
    }

    init(
        parent: StateNode<ParentState, Action>,
        initialState: Local,
        reducer: @escaping Reducer<Local, Action>,
        kind: ChildKind<ParentState, Local, State, Action>
    ) {
        self.local = initialState
        self.reducer = reducer
        self.kind = kind
        super.init(tree: parent.tree, parent: parent, sharedInbox: parent.sharedInbox)
    }

    override func reduceOwn(_ action: Action) -> ActionNode<Action>? {
        reduce(with: reducer, action)
        if hasAfterReduceSteps {
            runAfterReduceSteps()
        }
        return parent
    }

    /// Runs `reducer` on the local state, and, when the node has children and `Local` can be compared,
    /// notes whether the state changed.
    @inline(__always)
    private func reduce(with reducer: Reducer<Local, Action>, _ action: Action) {
        // Only a node with children has a use for the check: a leaf's visit is the same whether its
        // state changed or not, and the check costs a copy and a comparison.
        // The check is reached through the optional chain, which borrows it (see `RootNode`).
        if hasChildren, kind.changeCheck != nil {
            lastChanged = kind.changeCheck?.reduce(&local, action, reducer) ?? true
        } else {
            reducer(&local, action)
            lastChanged = true
        }
    }

    /// Runs the after-reduce steps on the local state. Out of line: few children have steps.
    @inline(never)
    private func runAfterReduceSteps() {
        // Safety: `withUnsafeMutablePointer` gives `local`'s address for the call only.
        withUnsafeMutablePointer(to: &local) { runAfterReduceSteps(on: $0) }
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

    override func recompute(makingCache: Bool) {
        var none = NodeObservers<State>()
        // Safety: as in `composeAndNotify()`.
        if hasCache {
            writeCachedState { cache, _, _ in
                compose(cache, true, &none, nil)
            }
        } else if makingCache {
            makeCache { cache in
                _ = compose(cache, false, &none, nil)
            }
        }
    }

    override func freshState() -> State {
        guard !hasCache else { return super.freshState() }
        // Safety: as in `composeAndNotify()`; the composition initialises the temporary, which the
        // state is moved out of.
        return withUnsafeTemporaryAllocation(of: State.self, capacity: 1) { buffer in
            let state = buffer.baseAddress!
            var none = NodeObservers<State>()
            _ = compose(state, false, &none, nil)
            return state.move()
        }
    }

    /// Composes the state of the parent's and the local state, into the cache if the node has one,
    /// and calls the observers with it.
    @inline(__always)
    private func composeAndNotify() {
        // Safety: the parent's cache is current (the walk down refreshes a parent before its children,
        // and `refreshAncestors` an ancestor before its descendants) and stays allocated while the
        // child holds its parent. `local` is passed `inout`: its address, for the call only.
        writeCachedState { cache, observers, list in
            compose(cache, true, &observers, list)
        }
    }

    /// Runs the kind's composition on the parent's cache and `local` (see ``Compose``).
    ///
    /// The kind is used unretained: it is a `let` of this node, and its closure a `let` of the kind.
    /// Called on the kind as a property, the closure's context was retained and released around every
    /// call.
    // Safety: `cache` and `list` are this node's box's, which the node holds (see `writeCachedState`);
    // `parent.cache` exists (made when this child attached or by `refreshAncestors`, see
    // `composeAndNotify`) and lives as long as the parent, which this node holds.
    @inline(__always)
    private func compose(
        _ cache: UnsafeMutablePointer<State>?,
        _ isInitialized: Bool,
        _ observers: inout NodeObservers<State>,
        // Safety: see the note above `compose`.
        _ list: Unmanaged<ObserverStorage<State>>?
    ) -> [Int]? {
        // Safety: `kind` is a `let` of this node, alive while the caller holds the node; `list` is only
        // handed on (see above).
        Unmanaged.passUnretained(kind)._withUnsafeGuaranteedRef { kind in
            kind.compose(UnsafePointer(parent.cache), &local, cache, isInitialized, &observers, list)
        }
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
        afterReduce.run(on: &local)
        // The step may have changed the local state: what is cached of it here and below follows.
        if hasCache {
            recompute(makingCache: false)
            refreshCachesBelow()
        }
    }
}

/// Makes a child's state of its parent's state and its local state, writes it into `cache` if there
/// is one (assigning when `isInitialized`, initialising otherwise), then calls the observers with it,
/// those of `list` if the node has one, the one in `observers` otherwise, and returns the slots of those
/// that answered `.dead` (``NodeObservers/notify(_:list:)``). Made where
/// `with(_:reducer:)` is inlined, so it is compiled for the concrete types: the pair is built, and the
/// observers' loop runs, without the runtime's type lookups or a copy of the state through it.
// Safety: the pointers are valid for the call only; `ChildNode.compose` says who owns each.
@usableFromInline
typealias Compose<ParentState, Local, State> =
    @Sendable (
        _ parent: UnsafePointer<ParentState>,
        _ local: inout Local,
        _ cache: UnsafeMutablePointer<State>?,
        _ isInitialized: Bool,
        _ observers: inout NodeObservers<State>,
        // Safety: as the other pointers above.
        _ list: Unmanaged<ObserverStorage<State>>?
    ) -> [Int]?
