import Dispatch
import Synchronization

/// A node of a store tree as the engine sees it: where it sits, who listens to it, and how it brings
/// its cached state up to date. The typed parts live in the subclasses (``ActionNode``, ``StateNode``
/// and the concrete nodes); the engine (``StoreTree``) walks nodes through this class only.
///
/// Strong references point up the tree: a node holds its parent; a parent holds its listening children
/// weakly, in ``children``.
///
/// A node is *attached* while someone listens to it: an observer, or an attached child. Only attached
/// nodes are in their parent's ``children``, and only they keep a cached state that the engine updates,
/// so a node nobody listens to costs nothing per action.
class TreeNode: @unchecked Sendable {
    // Safety: the `var`s below are touched only on the tree's serial queue: by the engine's drain, by
    // work items it runs, and by the subclasses' queue-only members, which the engine and the work items
    // call. The queue serialises every access; debug builds check each one (`tree.assertOnQueue()`), and
    // the drain checks it once per turn in every build. No access spans a call out to user code: the
    // engine holds accesses across calls to user code (a child's reducer mutates its `local` in place;
    // observers run while the node's lists are borrowed), which is sound because user code on the queue
    // cannot reach these fields synchronously: every way back into a store goes through the inbox. The
    // `let`s are set in `init` and never change.
    final let tree: StoreTree
    final let parentNode: TreeNode?
    /// The root, for every node but the root itself (which would otherwise hold itself).
    private final let rootNode: TreeNode?
    // The stored fields are laid out for size (W4 counts the bytes of each child store): the 32-bit
    // fields each follow one that leaves four bytes free (`children` is 12 bytes), and `isAttached`
    // comes last, so that the subclasses' first `Bool` packs beside it instead of after seven bytes of
    // padding.
    /// How many children have been made from this node.
    private final let childrenMade = Atomic<Int>(0)
    /// The node's attached children, in the order they attached.
    @exclusivity(unchecked) final var children = ChildList()
    /// The number of ancestors, stored in 32 bits (see ``depth``).
    private final let storedDepth: Int32
    /// Incremented on each attach, so an entry left in the parent's ``children`` by an earlier attach
    /// is recognised as stale.
    @exclusivity(unchecked) final var attachGeneration: UInt64 = 0
    /// The observers of this node.
    @exclusivity(unchecked) final var observerCount = 0
    /// The number of children made before this one from the same parent, stored in 32 bits (see
    /// ``indexInParent``).
    private final let storedIndexInParent: Int32
    @exclusivity(unchecked) final var isAttached: Bool

    /// Creates a root (no parent, always attached) or a node below `parent`.
    init(tree: StoreTree, parent: TreeNode?) {
        self.tree = tree
        self.parentNode = parent
        self.rootNode = parent.map(\.root)
        let depth = parent.map { $0.depth + 1 } ?? 0
        let indexInParent = parent?.childrenMade.wrappingAdd(1, ordering: .relaxed).oldValue ?? 0
        precondition(
            depth <= Int32.max && indexInParent <= Int32.max,
            "A store tree holds at most \(Int32.max) levels and \(Int32.max) children per store"
        )
        self.storedDepth = Int32(depth)
        self.storedIndexInParent = Int32(indexInParent)
        self.isAttached = parent == nil
    }

    deinit {
        // Releasing the last handle of a deep chain frees each node from its child's deinit, one stack
        // frame per level. Every so many levels, the parent is let go of on the tree's queue instead,
        // so a chain of any depth is freed without running out of stack.
        if depth > 0, depth.isMultiple(of: Self.releaseHop), let parentNode {
            tree.queue.async { withExtendedLifetime(parentNode) {} }
        }
    }

    /// The number of ancestors.
    final var depth: Int {
        Int(storedDepth)
    }

    /// The number of children made before this one from the same parent: this node's place in a
    /// ``StoreID``.
    final var indexInParent: Int {
        Int(storedIndexInParent)
    }

    /// How many levels a chain of deinits may nest before the release moves to the tree's queue.
    private static var releaseHop: Int { 64 }

    /// The root of the tree.
    final var root: TreeNode {
        rootNode ?? self
    }

    /// The node's place in its tree: the child indices from the root down, stable for a tree built the
    /// same way.
    final var storeID: StoreID {
        // No array to build, and no lazily made global to check: a recorder asks for each action.
        guard depth > 0 else { return StoreID(knownValidPath: []) }
        var path = [Int](repeating: 0, count: depth)
        var node: TreeNode = self
        while let parent = node.parentNode {
            path[node.depth - 1] = node.indexInParent
            node = parent
        }
        return StoreID(knownValidPath: path)
    }

    // MARK: Entering the queue

    /// Runs `work` on the queue after everything pushed before it, from any thread.
    final func enqueueWork(_ work: @escaping @Sendable () -> Void) {
        if tree.inbox.push(work: work) {
            scheduleDrain()
        }
    }

    /// Schedules a drain of the tree's inbox; the caller has just claimed it (an inbox push returned
    /// `true`). The scheduled block holds the root, so the drain can run whatever happens meanwhile.
    final func scheduleDrain() {
        let root = self.root
        tree.queue.async { root.drainInbox() }
    }

    /// On the queue: runs the drain (``StoreTree/drain(_:root:)``). The root overrides it.
    func drainInbox() {
        preconditionFailure("Internal inconsistency: \(type(of: self)) is not a root")
    }

    /// On the queue: whether anyone listens to this node. A child that detached or was freed counts
    /// until the next walk over ``children`` drops its entry.
    final var hasListeners: Bool {
        observerCount > 0 || !children.isEmpty
    }

    // MARK: Overridden by the typed nodes

    /// On the queue, during the engine's walk down the tree: brings the cached state up to date and says
    /// whether it may have changed since the last walk.
    ///
    /// - Parameters:
    ///   - parentChanged: Whether the parent's state may have changed in this walk.
    ///   - onPath: Whether the action was reduced by this node (it lies between the receiving node and
    ///     the root).
    /// - Returns: Whether the state may have changed; `false` only when it provably did not.
    func refresh(parentChanged: Bool, onPath: Bool) -> Bool {
        preconditionFailure("Internal inconsistency: \(type(of: self)) does not refresh")
    }

    /// On the queue: recomputes the cached state from the parent's cached state, which is up to date.
    func recompute() {}

    /// On the queue: whether the cached state is current without recomputing it (the node is attached
    /// and has computed it).
    var hasCurrentCache: Bool { isAttached }

    /// On the queue: calls the observers with the cached state, in subscription order.
    func notifyObservers() {}

    // MARK: Listening

    /// On the queue: makes this node and its ancestors attached, so the engine keeps their cached states
    /// up to date from now on. Iterative, so the depth of the tree is not bounded by the stack.
    final func attach() {
        guard !isAttached else { return }
        var newlyAttached: [TreeNode] = []
        var node = self
        while !node.isAttached, let parent = node.parentNode {
            node.isAttached = true
            node.attachGeneration &+= 1
            parent.children.add(node)
            parent.listenersChanged()
            newlyAttached.append(node)
            node = parent
        }
        // The highest node's parent was attached already, so its cache is current; refresh downwards.
        for node in newlyAttached.reversed() {
            node.recompute()
        }
    }

    /// On the queue: detaches this node if nobody listens to it any more. Its entry in the parent's
    /// ``children`` goes at the parent's next walk, which may detach the parent in turn.
    final func detachIfUnused() {
        guard isAttached, depth > 0, !hasListeners else { return }
        isAttached = false
    }

    /// On the queue: to be called after ``observerCount`` or ``children`` changed. The root tells the
    /// engine whether anything in the tree listens.
    final func listenersChanged() {
        if depth == 0 {
            tree.isListenedTo = hasListeners
        }
    }

    /// On the queue: calls `body` with each attached child, in attach order, dropping the entries of
    /// children that are gone or detached; detaches this node if that leaves nobody listening.
    final func forEachChild(_ body: (consuming TreeNode) -> Void) {
        children.forEachLive(body)
        listenersChanged()
        detachIfUnused()
    }
}
