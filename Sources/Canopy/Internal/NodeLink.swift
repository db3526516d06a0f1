import Dispatch
import Synchronization

/// The part of a tree node that any thread may use: where the node sits in its tree, what keeps it
/// there, and the way onto the tree's queue. The node's own fields are the queue's alone; whatever a
/// store handle, a weak route or a token does from another thread, it does here.
///
/// What keeps a node in its tree is its holders and the actions weak routes accepted for it, counted
/// together with the node itself, which the link holds while either count is left. The *holders* are
/// the node's store handle (``NodeHandle``), while any store holds it, and each child made from the
/// node, while the child lives. The accepted actions are those that weak routes took for the node and
/// that wait in the inbox (``AcceptedAction``). When neither is left, the link lets go of the node, and
/// a node below the root leaves the tree, on the queue.
///
/// What must reach a node without keeping it (a weak handle, a route for middleware, a dispatch's
/// completion) holds a ``NodeReference``: this link and an unowned reference to the node, read only
/// while the link says the node is kept. A subscription's gate, which needs the node only as the
/// untyped host of its observer, holds this link alone and takes the node from it (``nodeIfInTree``).
/// A weak reference would do the same, but gives the node a side table, which puts every retain and
/// release of the node on the runtime's slow path (about 150 instructions a pair, where the usual one
/// costs about 20).
// The node the link holds is only handed to the queue (`leave(_:)`), never used here. A `Mutex` would let
// the compiler check the `var`, but the thread sanitizer cannot see `Mutex`'s futex calls and reports the
// accesses as races.
// Safety: Sendable by hand: its one `var` is used only under `lock` (`withKeepers`); the rest are `let`s.
final class NodeLink: @unchecked Sendable {
    private struct Keepers {
        /// The node, while something keeps it in the tree.
        var node: TreeNode?
        var holders: Int32 = 0
        var acceptedActions: Int32 = 0

        /// The node, taken out, when nothing keeps it in the tree any more.
        mutating func takeNodeIfUnkept() -> TreeNode? {
            guard holders == 0, acceptedActions == 0 else { return nil }
            let taken = node
            node = nil
            return taken
        }
    }

    /// The engine of the node's tree; the node holds it. Unowned, so that what holds only the link (a
    /// subscription's token, a weak route) does not keep the tree alive: it is read only while something
    /// holds the node, and so the tree.
    unowned let tree: StoreTree
    // Laid out for size (W4 counts the bytes of each child store): the references first, then the 32-bit
    // fields, then the lock's one byte.
    private var keepers = Keepers()
    /// How many children have been made from the node.
    private let childrenMade = Atomic<Int32>(0)
    /// The number of ancestors, stored in 32 bits (see ``depth``).
    private let storedDepth: Int32
    /// The number of children made before this one from the same parent, stored in 32 bits (see
    /// ``indexInParent``).
    private let storedIndexInParent: Int32
    private let lock = ShortLock()

    /// The link of a root (`parent` is `nil`) or of a node made below the node whose link is `parent`,
    /// the next child made from it.
    init(tree: StoreTree, parent: NodeLink?) {
        self.tree = tree
        let depth = parent.map { Int($0.storedDepth) + 1 } ?? 0
        let indexInParent = parent?.childrenMade.wrappingAdd(1, ordering: .relaxed).oldValue ?? 0
        precondition(
            depth <= Int32.max && indexInParent < Int32.max,
            "A store tree holds at most \(Int32.max) levels and \(Int32.max - 1) children per store"
        )
        self.storedDepth = Int32(depth)
        self.storedIndexInParent = indexInParent
    }

    /// The number of the node's ancestors: 0 at the root.
    var depth: Int {
        Int(storedDepth)
    }

    /// The number of children made before the node from the same parent: its place in a ``StoreID``.
    var indexInParent: Int {
        Int(storedIndexInParent)
    }

    // MARK: Keepers

    /// Runs `body` on the counts and the node while holding the lock.
    @inline(__always)
    private func withKeepers<Result>(_ body: (inout Keepers) -> Result) -> Result {
        lock.withLock { body(&keepers) }
    }

    /// Runs `body` if the node has holders, and returns whether it did. While `body` runs, the node
    /// cannot be let go of: `body` may read an unowned reference to it.
    @inline(__always)
    func whileHeld(_ body: () -> Void) -> Bool {
        withKeepers { keepers in
            guard keepers.holders > 0 else { return false }
            body()
            return true
        }
    }

    /// Runs `body` if something keeps the node in the tree (a holder, or an action a weak route accepted
    /// for it that waits for its turn), and returns whether it did. While `body` runs, the node cannot be
    /// let go of: `body` may read an unowned reference to it.
    @inline(__always)
    func whileInTree(_ body: () -> Void) -> Bool {
        withKeepers { keepers in
            guard keepers.node != nil else { return false }
            body()
            return true
        }
    }

    /// The node, for the queue, while something keeps it in the tree (as ``whileInTree(_:)`` says);
    /// `nil` once nothing does. What holds only the link (a subscription's gate) reaches its node here,
    /// with no reference of its own to the node, and so no unowned count on it.
    var nodeIfInTree: QueueBound<TreeNode>? {
        withKeepers { keepers in keepers.node.map { QueueBound($0) } }
    }

    /// Whether nothing keeps the node in the tree any more.
    var isUnkept: Bool {
        withKeepers { $0.holders == 0 && $0.acceptedActions == 0 }
    }

    /// One more holder keeps `owner`, whose link this is, in the tree. A node whose holders all let go
    /// may be held again only once nothing keeps it at all (the root, by its next drain); a child is
    /// never held again once it leaves the tree, since nothing reaches it to do so.
    func keep(_ owner: TreeNode) {
        withKeepers { keepers in
            precondition(
                keepers.holders > 0 || keepers.node == nil,
                "Internal inconsistency: a node was held again while actions accepted without a holder kept it"
            )
            keepers.holders += 1
            keepers.node = owner
        }
    }

    /// One holder let go of the node; the last thing that kept it sends it out of the tree.
    func letGo() {
        let released = withKeepers { keepers in
            precondition(keepers.holders > 0, "Internal inconsistency: a store was let go of more than held")
            keepers.holders -= 1
            return keepers.takeNodeIfUnkept()
        }
        if let released {
            leave(released)
        }
    }

    /// Keeps the node in the tree for one action a weak route accepts, unless no holder keeps it any
    /// more. Below the root only. One step under the lock, so the action either gets in while a holder
    /// is there or finds the node released, never in between; and actions accepted this way never accept
    /// more on their own, so an observer that re-sends through a weak handle on every state cannot keep
    /// a released node in the tree.
    ///
    /// - Returns: Whether the action is accepted; if so, ``letGoOfAcceptedAction()`` once it is handled.
    func keepForAcceptedAction() -> Bool {
        assert(storedDepth > 0, "Internal inconsistency: the root keeps no count of accepted actions")
        return withKeepers { keepers in
            guard keepers.holders > 0 else { return false }
            keepers.acceptedActions += 1
            return true
        }
    }

    /// An action accepted by ``keepForAcceptedAction()`` has been handled.
    func letGoOfAcceptedAction() {
        let released = withKeepers { keepers in
            keepers.acceptedActions -= 1
            return keepers.takeNodeIfUnkept()
        }
        if let released {
            leave(released)
        }
    }

    /// Once nothing keeps `node`, the node of this link: sends it out of the tree, on the queue, outside
    /// the lock. What is sent holds the node until then, so the tree's reference in the parent's list is
    /// never the last one while the node is in it. The root, which is in no list, stays: it is freed with
    /// its last reference, which may be `node`, here.
    private func leave(_ node: consuming TreeNode) {
        guard storedDepth > 0 else { return }
        if tree.drainingThread.isCurrent {
            // Let go of during the drain (by a work item that held the last store, an observer that
            // dropped one): the node leaves the tree right after the current inbox entry, before the
            // next one, never in the middle of a walk.
            tree.dropAfterCurrentEntry(node)
        } else {
            let node = QueueBound(node)
            node.enqueueWork { node.withNode { $0.dropFromTree() } }
        }
    }

    // MARK: Entering the queue

    /// Has the tree's queue remove the observer of `gate`, which was just closed, with those of the other
    /// gates cancelled meanwhile (``CancelledGates``). `node`, the node of this link, is held for the
    /// call, and with it the tree.
    func enqueueRemoval(of gate: CallGate, holding node: TreeNode) {
        let tree = self.tree
        if tree.cancelledGates.add(gate) {
            // Captures the tree only, which is then the work item's context: nothing more is allocated.
            enqueueWork(holding: node) { tree.cancelledGates.removeObservers() }
        }
    }

    /// Runs `work` on the queue after everything pushed before it. `node`, the node of this link, is held
    /// for the call, and with it the tree and its root, which a drain scheduled here reads.
    func enqueueWork(holding node: TreeNode, _ work: @escaping @Sendable () -> Void) {
        withExtendedLifetime(node) {
            if tree.inbox.push(work: work) {
                tree.scheduleDrain()
            }
        }
    }
}
