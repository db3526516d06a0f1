import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A node of a store tree as the engine sees it: where it sits, who listens to it, and how it brings
/// its cached state up to date. The typed parts live in the subclasses (``ActionNode``, ``StateNode``
/// and the concrete nodes); the engine (``StoreTree``) walks nodes through this class only.
///
/// Strong references point up the tree: a node holds its parent. The one reference down is the tree's
/// own: a parent's list of children (``TreeNodeExtras/children``) holds its *attached* children, which
/// the tree takes out on its queue as soon as they detach or nothing keeps them any more (``link``),
/// so a parent never keeps a child alive beyond that, and the walk down reads children without
/// reference counting.
///
/// A node is *attached* while someone listens to it: an observer, or an attached child. Only attached
/// nodes are in their parent's list, and only they keep a cached state that the engine updates, so a
/// node nobody listens to costs nothing per action.
///
/// A node is not `Sendable`: its fields are the tree queue's. Its `var`s are touched only on the queue, by
/// the engine's drain, by the work items the drain runs, and by the subclasses' members that the two
/// call; the drain checks the queue once per turn in every build, debug builds at each access
/// (`tree.assertOnQueue()`). What other threads hold of a node is a ``QueueBound``, which gives the node
/// back only on the queue, and what they do with it goes through its link (``NodeLink``): its holders,
/// its place in the tree and the way onto the queue. What user code uses in place, across its calls, is
/// not among the `var`s: a child's local state and first observer are under a lock (`ChildCell`), and
/// the lists of observers are borrowed from the node's box while observers run, which is sound because
/// user code on the queue cannot reach them synchronously: every way back into a store goes through the
/// inbox.
class TreeNode {
    final let tree: StoreTree
    // The stored fields are laid out for size (W4 counts the bytes of each child store): the 64-bit
    // fields come first, the 32-bit fields follow one another, and the one-byte fields come last, so
    // that `ActionNode`'s pack beside them.
    /// What only some nodes need of the engine's (children, after-reduce steps), once the node needs one
    /// of them: one reference to a box (``TreeNodeExtras``), kept out of every node.
    // Set once, by `madeExtras`, and never replaced, so borrowed reads stay valid.
    final private(set) var extras: TreeNodeExtras?
    /// The node's part that any thread may use: what keeps it in the tree (its holders, and actions weak
    /// routes accepted for it), its place there, and the way onto the queue (``NodeLink``).
    final let link: NodeLink
    /// The number of ancestors, stored in 32 bits (see ``depth``); the link has it too, for other threads.
    private final let storedDepth: Int32
    // `listSlot`, `isAttached` and `flags` are plain values; no access to them spans a call to other code.
    /// Where this node is in its parent's list of children, while it is attached.
    final var listSlot: Int32 = 0
    final var isAttached: Bool
    /// Flags set rarely and read on the engine's paths: one byte (see ``NodeFlags``).
    private final var flags: NodeFlags = []

    /// Creates a root (no parent, always attached) or a node below `parent`, which it keeps: the subclass
    /// holds it (``parentNode``), typed, and lets go of it in its `deinit` (``letGoOfParent(_:)``).
    init(tree: StoreTree, parent: TreeNode?) {
        self.tree = tree
        let link = NodeLink(tree: tree, parent: parent?.link)
        self.link = link
        self.storedDepth = Int32(link.depth)
        self.isAttached = parent == nil
        parent?.keep()
    }

    #if DEBUG
    deinit {
        // `init` keeps the parent in the tree; the subclass that holds it must let go of it.
        assert(
            depth == 0 || flags.contains(.letGoOfParent),
            "Internal inconsistency: \(type(of: self)) did not let go of its parent in its deinit"
        )
    }
    #endif

    /// The parent; `nil` at the root. The nodes below the root hold it typed, and override this.
    var parentNode: TreeNode? {
        nil
    }

    /// Called by the `deinit` of a node below the root, with its parent, which the node holds until its
    /// `deinit` ends: this node no longer keeps its parent in the tree.
    ///
    /// Releasing the last handle of a deep chain frees each node from its child's deinit, one stack frame
    /// per level. Every so many levels, the parent is let go of on the tree's queue instead, so a chain
    /// of any depth is freed without running out of stack.
    final func letGoOfParent(_ parent: TreeNode) {
        #if DEBUG
        flags.insert(.letGoOfParent)
        #endif
        parent.link.letGo()
        if depth.isMultiple(of: Self.releaseHop) {
            let parent = QueueBound(parent)
            tree.queue.async { withExtendedLifetime(parent) {} }
        }
    }

    // MARK: Keepers

    /// From any thread: one more holder keeps this node in the tree (``NodeLink/keep(_:)``); the holder
    /// lets go of it through the link (``NodeLink/letGo()``).
    final func keep() {
        link.keep(self)
    }

    /// On the queue, outside any walk: takes the node out of the tree for good, once nothing keeps it.
    final func dropFromTree() {
        guard link.isUnkept else { return }
        flags.insert(.dropped)
        detach()
    }

    /// On the queue: whether middleware is attached to this node (``ActionNode/middleware``): read on
    /// every action's way through the middleware stage, one bit where the middleware itself is in the
    /// node's box of extras.
    final var hasMiddleware: Bool {
        @inline(__always) get { flags.contains(.hasMiddleware) }
    }

    /// On the queue: whether after-reduce steps were added to this node (kept in its box, as
    /// ``TreeNodeExtras/afterReduceSteps``): one bit read on every action of a child.
    final var hasAfterReduceSteps: Bool {
        @inline(__always) get { flags.contains(.hasAfterReduceSteps) }
    }

    /// On the queue: adds `step` after this node's after-reduce steps, in its box; `flag` is where the
    /// `Bool` that says whether the step has work lies in the node's own state, in bytes.
    final func addAfterReduceStep<Own>(_ step: @escaping @Sendable (inout Own) -> Void, flagAt flag: Int) {
        let extras = madeExtras
        let earlier = extras.afterReduceSteps.map { Self.typed($0, as: Own.self) }
        extras.afterReduceSteps = AfterReduceSteps<Own> { own in
            earlier?.run(&own)
            step(&own)
        }
        extras.afterReduceStepCount += 1
        extras.soleStepFlag = flag
        flags.insert(.hasAfterReduceSteps)
    }

    /// On the queue, once the reducer ran, for a node with after-reduce steps: whether they have work.
    /// With one step, its flag is read here, by `flagIsSet`, which reads the `Bool` that many bytes into
    /// the node's own state, so that an action that gives the step nothing to do costs a load, not a
    /// cast and a call of the steps (``runAfterReduceSteps(on:)``).
    @inline(__always)
    final func afterReduceStepsHaveWork(_ flagIsSet: (_ byteOffset: Int) -> Bool) -> Bool {
        guard let extras else { return false }
        return extras.afterReduceStepCount > 1 || flagIsSet(extras.soleStepFlag)
    }

    /// On the queue, for a node whose after-reduce steps have work: runs them on `own`, its own state.
    final func runAfterReduceSteps<Own>(on own: inout Own) {
        guard let steps = extras?.afterReduceSteps else { return }
        Self.typed(steps, as: Own.self).run(&own)
    }

    /// Casts a node's after-reduce steps back to the type of its own state, which they were made for.
    private static func typed<Own>(_ steps: AnyObject, as _: Own.Type) -> AfterReduceSteps<Own> {
        guard let typed = steps as? AfterReduceSteps<Own> else {
            preconditionFailure("Internal inconsistency: after-reduce steps of another state type")
        }
        return typed
    }

    /// On the queue: notes that middleware is attached to this node.
    final func noteMiddleware() {
        flags.insert(.hasMiddleware)
    }

    /// On the queue: the number of observers of this node. A node with state overrides it; it keeps no
    /// count of its own (the observer in a child's cell, or the list in its box, know it), which would cost
    /// every node 4 bytes.
    var observerCount: Int { 0 }

    /// The number of ancestors.
    final var depth: Int {
        Int(storedDepth)
    }

    /// The number of children made before this one from the same parent: this node's place in a
    /// ``StoreID``.
    final var indexInParent: Int {
        link.indexInParent
    }

    /// How many levels a chain of deinits may nest before the release moves to the tree's queue.
    private static var releaseHop: Int { 64 }

    /// The root of the tree.
    final var root: TreeNode {
        tree.root
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

    // MARK: The drain

    /// On the queue, in the drain's turn: runs the drain (``StoreTree/drain(_:root:in:)``). The root
    /// overrides it.
    func drainInbox(in turn: borrowing DrainTurn) {
        preconditionFailure("Internal inconsistency: \(type(of: self)) is not a root")
    }

    /// On the queue: whether anyone listens to this node.
    final var hasListeners: Bool {
        observerCount > 0 || hasChildren
    }

    // MARK: The box of extras

    /// On the queue: the node's box, made now if it has none yet.
    final var madeExtras: TreeNodeExtras {
        if let extras {
            return extras
        }
        let made = TreeNodeExtras()
        extras = made
        return made
    }

    /// On the queue: whether the node has attached children.
    final var hasChildren: Bool {
        @inline(__always) get { extras?.children.isEmpty == false }
    }

    /// On the queue: the slots of the node's list of attached children as they are now
    /// (``ChildList/slots``), empty when it has none.
    final var childSlots: ContiguousArray<TreeNode?> {
        @inline(__always) get { extras?.children.slots ?? [] }
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

    /// On the queue, during the engine's walk down the tree: ``refresh(parentChanged:onPath:)``, then
    /// ``notifyObservers()``, in one call. Nodes that can do both more cheaply together override it.
    ///
    /// - Returns: Whether the state may have changed; `false` only when it provably did not.
    func visit(parentChanged: Bool, onPath: Bool) -> Bool {
        let changed = refresh(parentChanged: parentChanged, onPath: onPath)
        notifyObservers()
        return changed
    }

    /// On the queue: recomputes the cached state from the parent's cached state, which is up to date.
    /// A node without a cache makes one when `makingCache` (a child of it is about to read it), and has
    /// nothing to recompute otherwise.
    func recompute(makingCache: Bool) {}

    /// On the queue: whether the cached state is current without recomputing it (the node is attached
    /// and has computed it).
    var hasCurrentCache: Bool { isAttached }

    /// On the queue: calls the observers with the cached state, in subscription order.
    func notifyObservers() {}

    /// On the queue: removes the observer called through `gate`, if the node has it, found in the slot
    /// the gate keeps (``CallGate/slot``), and leaves the slot empty: the batch of removals that calls it
    /// (``CancelledGates``) calls ``compactObservers()`` once after the last. A node with state overrides
    /// it.
    func removeObserver(of gate: CallGate) {}

    /// On the queue: after removals that did not compact, counts the node's listeners again
    /// (``listenersChanged()``), once for the whole batch, compacts the list of observers if sparse and
    /// detaches the node if nobody listens to it any more. A node with state overrides it.
    func compactObservers() {}

    // MARK: Listening

    /// On the queue: makes this node and its ancestors attached, so the engine keeps their cached states
    /// up to date from now on. Iterative, so the depth of the tree is not bounded by the stack. A node
    /// that nothing keeps any more does not attach.
    ///
    /// - Returns: Whether the node is attached.
    @discardableResult
    final func attach() -> Bool {
        guard !isAttached else { return true }
        guard !flags.contains(.dropped) else { return false }
        #if DEBUG
        assert(!tree.queueState.isWalkingDown, "Internal inconsistency: a node attached during the walk down")
        #endif
        var newlyAttached: [TreeNode] = []
        var node = self
        while !node.isAttached, let parent = node.parentNode {
            node.isAttached = true
            parent.addAttachedChild(node)
            parent.listenerAdded()
            newlyAttached.append(node)
            node = parent
        }
        // The highest node's parent was attached already, so its cache is current, if it has one: a
        // leaf child has none, and makes it now that a child reads it. Then refresh downwards: every
        // node but the first has a child that reads its cache from now on.
        if !node.hasCurrentCache {
            node.recompute(makingCache: true)
        }
        for (index, node) in newlyAttached.enumerated().reversed() {
            node.recompute(makingCache: index > 0)
        }
        return true
    }

    /// On the queue: brings the caches of the attached nodes below this one up to date from this node's
    /// state, which changed outside an action (an after-reduce step runs once when it is added).
    /// Otherwise only the walk down of the next action would, and a read of a state below in between
    /// would see the old one. No observer is called: no action happened. Iterative, like ``attach()``.
    final func refreshCachesBelow() {
        var parents: [TreeNode] = [self]
        while let parent = parents.popLast() {
            // A child's recompute may detach its siblings: the slots as they were are read, and a child
            // taken out meanwhile is no longer attached.
            for case let child? in parent.childSlots where child.isAttached && child.hasCurrentCache {
                child.recompute(makingCache: false)
                if child.hasChildren {
                    parents.append(child)
                }
            }
        }
    }

    /// On the queue: adds `child`, just attached, to this node's list of children. The list is moved out
    /// of the box for the addition, which may grow its block, and back: every access to the field is then
    /// a plain move, which the compiler proves exclusive without a runtime check.
    private final func addAttachedChild(_ child: TreeNode) {
        let extras = madeExtras
        var children = ChildList()
        swap(&children, &extras.children)
        children.add(child)
        swap(&children, &extras.children)
    }

    /// On the queue: takes `child`, which is in this node's list, out of it, and lets go of the list's
    /// reference. Moved out of the box and back, as in ``addAttachedChild(_:)``: emptying the list may
    /// free its storage.
    private final func removeAttachedChild(_ child: TreeNode) {
        // Safety: the list holds `child`, so this node has a box.
        let extras = extras!
        var children = ChildList()
        swap(&children, &extras.children)
        let reference = children.remove(child)
        swap(&children, &extras.children)
        withExtendedLifetime(reference) {}
    }

    /// On the queue: detaches this node if nobody listens to it any more, and then each ancestor that
    /// this leaves with nobody listening.
    final func detachIfUnused() {
        guard isAttached, depth > 0, !hasListeners else { return }
        detach()
    }

    /// On the queue: takes this attached node out of its parent's list of children, then detaches each
    /// ancestor that this leaves with nobody listening. Iterative, like ``attach()``.
    ///
    /// Releasing the list's reference here never frees a node: while a node is in a list, something
    /// else keeps it too (``link``), or the work item that drops it from the tree holds it.
    private final func detach() {
        var node = self
        while node.isAttached, let parent = node.parentNode {
            node.isAttached = false
            // Safety: the parent's list holds `node`, so the parent has a box.
            parent.removeAttachedChild(node)
            parent.listenersChanged()
            guard !parent.hasListeners else { return }
            node = parent
        }
    }

    /// On the queue: to be called after ``observerCount`` or the children changed. The root tells the
    /// engine whether anything in the tree listens.
    final func listenersChanged() {
        if depth == 0 {
            tree.queueState.isListenedTo = hasListeners
        }
    }

    /// On the queue: to be called after an observer or a child was added, which leaves the node with a
    /// listener: ``listenersChanged()`` without counting them.
    final func listenerAdded() {
        if depth == 0 {
            tree.queueState.isListenedTo = true
        }
    }
}

/// What a ``TreeNode`` notes about itself on the queue, rarely, in one byte.
private struct NodeFlags: OptionSet {
    let rawValue: UInt8

    /// Nothing keeps the node any more: it never attaches again.
    static let dropped = NodeFlags(rawValue: 1 << 0)
    /// Middleware is attached to the node.
    static let hasMiddleware = NodeFlags(rawValue: 1 << 1)
    /// After-reduce steps were added to the node (``TreeNode/addAfterReduceStep(_:)``).
    static let hasAfterReduceSteps = NodeFlags(rawValue: 1 << 2)
    /// Debug builds: the node's `deinit` let go of its parent (``TreeNode/letGoOfParent(_:)``).
    static let letGoOfParent = NodeFlags(rawValue: 1 << 3)
}
