/// What keeps a node in its tree: its holders and the actions weak routes accepted for it, counted
/// together with the node itself, which the link holds while either count is left.
///
/// The *holders* are the node's store handle (``NodeHandle``), while any store holds it, and each child
/// made from the node, while the child lives. The accepted actions are those that weak routes took for
/// the node and that wait in the inbox (``AcceptedAction``). When neither is left, the link lets go of
/// the node, and a node below the root leaves the tree (``TreeNode/leaveTree()``).
///
/// What must reach a node without keeping it (a subscription's token, a weak handle, a route for
/// middleware, a dispatch's completion) holds a ``NodeReference``: this link and an unowned reference
/// to the node, read only while the link says the node is kept. A weak reference would do the same, but
/// gives the node a side table, which puts every retain and release of the node on the runtime's slow
/// path (about 150 instructions a pair, where the usual one costs about 20).
// Safety: Sendable by hand: its one `var` is read and written only while `lock` is held (every access
// goes through `withKeepers`), which orders the accesses of all threads. A `Mutex` would let the compiler
// check it, but the thread sanitizer cannot see `Mutex`'s futex calls and reports the accesses as races.
final class NodeLink: @unchecked Sendable {
    private struct Keepers {
        var holders = 0
        var acceptedActions = 0
        /// The node, while something keeps it in the tree.
        var node: TreeNode?

        /// The node, taken out, when nothing keeps it in the tree any more.
        mutating func takeNodeIfUnkept() -> TreeNode? {
            guard holders == 0, acceptedActions == 0 else { return nil }
            let taken = node
            node = nil
            return taken
        }
    }

    private let lock = ShortLock()
    private var keepers = Keepers()

    init() {}

    /// Runs `body` on the counts and the node while holding the lock.
    @inline(__always)
    private func withKeepers<Result>(_ body: (inout Keepers) -> Result) -> Result {
        lock.withLock { body(&keepers) }
    }

    /// From any thread: runs `body` if the node has holders, and returns whether it did. While `body`
    /// runs, the node cannot be let go of: `body` may read an unowned reference to it.
    @inline(__always)
    func whileHeld(_ body: () -> Void) -> Bool {
        withKeepers { keepers in
            guard keepers.holders > 0 else { return false }
            body()
            return true
        }
    }

    /// From any thread: runs `body` if something keeps the node in the tree (a holder, or an action a
    /// weak route accepted for it that waits for its turn), and returns whether it did. While `body`
    /// runs, the node cannot be let go of: `body` may read an unowned reference to it.
    @inline(__always)
    func whileInTree(_ body: () -> Void) -> Bool {
        withKeepers { keepers in
            guard keepers.node != nil else { return false }
            body()
            return true
        }
    }

    /// From any thread: whether nothing keeps the node in the tree any more.
    var isUnkept: Bool {
        withKeepers { $0.holders == 0 && $0.acceptedActions == 0 }
    }

    /// From any thread: one more holder keeps `owner`, whose link this is, in the tree. A node whose
    /// holders all let go may be held again only once nothing keeps it at all (the root, by its next
    /// drain); a child is never held again once it leaves the tree, since nothing reaches it to do so.
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

    /// From any thread: one holder let go of the node.
    ///
    /// - Returns: Whether nothing keeps the node in the tree any more.
    func letGo() -> Bool {
        let released = withKeepers { keepers in
            precondition(keepers.holders > 0, "Internal inconsistency: a store was let go of more than held")
            keepers.holders -= 1
            return keepers.takeNodeIfUnkept()
        }
        return Self.unkept(released)
    }

    /// From any thread: keeps the node in the tree for one action a weak route accepts, unless no holder
    /// keeps it any more. One step under the lock, so the action either gets in while a holder is there
    /// or finds the node released, never in between; and actions accepted this way never accept more on
    /// their own, so an observer that re-sends through a weak handle on every state cannot keep a
    /// released node in the tree.
    ///
    /// - Returns: Whether the action is accepted; if so, ``letGoOfAcceptedAction()`` once it is handled.
    func keepForAcceptedAction() -> Bool {
        withKeepers { keepers in
            guard keepers.holders > 0 else { return false }
            keepers.acceptedActions += 1
            return true
        }
    }

    /// From any thread: an action accepted by ``keepForAcceptedAction()`` has been handled.
    ///
    /// - Returns: Whether nothing keeps the node in the tree any more.
    func letGoOfAcceptedAction() -> Bool {
        let released = withKeepers { keepers in
            keepers.acceptedActions -= 1
            return keepers.takeNodeIfUnkept()
        }
        return Self.unkept(released)
    }

    /// Whether the node was let go of (`released` is the node, then), releasing it here, outside the
    /// lock: its `deinit` may run, and lets go of its parent.
    private static func unkept(_ released: consuming TreeNode?) -> Bool {
        released != nil
    }
}
