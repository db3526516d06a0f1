/// A reference to a node that does not keep it, nor give it a side table: the node's ``NodeLink``, and
/// an unowned reference to the node that is read only while the link keeps the node, and handed out as a
/// ``QueueBound``, which gives the node back only on the queue.
// Safety: Sendable by hand, as `QueueBound` is: the node is only read into a `QueueBound`; the link is `Sendable`.
struct NodeReference<Node: TreeNode>: @unchecked Sendable {
    /// The node's link.
    let link: NodeLink
    /// Read only while `link` keeps the node: then it is alive, and reading it retains it.
    private unowned(safe) let unkept: Node

    /// A reference to `node`, which the caller holds (on the queue, or as it makes one).
    init(_ node: Node) {
        self.link = node.link
        self.unkept = node
    }

    /// A reference to the node `bound` holds.
    init(_ bound: QueueBound<Node>) {
        self.init(bound.parentForNewNode)
    }

    /// The node, which the caller knows is alive (it traps otherwise, as an `unowned` reference does): a
    /// middleware chain reading the state of the node that holds it, a weak handle made from a node its
    /// maker holds.
    var assumingAlive: QueueBound<Node> {
        QueueBound(unkept)
    }

    /// From any thread: the node, while it has holders; `nil` once the last one let go of it (it may
    /// still be in memory, and in the tree until the actions weak routes accepted for it are handled).
    /// Inlined, so that code generic over the node's type looks up no metadata to read it.
    @inline(__always)
    var ifHeld: QueueBound<Node>? {
        var found: QueueBound<Node>?
        _ = link.whileHeld { found = QueueBound(unkept) }
        return found
    }

    /// From any thread: the node, while something keeps it in the tree.
    @inline(__always)
    var ifInTree: QueueBound<Node>? {
        var found: QueueBound<Node>?
        _ = link.whileInTree { found = QueueBound(unkept) }
        return found
    }
}
