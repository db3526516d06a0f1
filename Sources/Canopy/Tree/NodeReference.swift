/// A reference to a node that does not keep it, nor give it a side table: the node's ``NodeLink``, and
/// an unowned reference to the node that is read only while the link keeps the node.
struct NodeReference<Node: AnyObject & Sendable>: Sendable {
    private let link: NodeLink
    /// Read only while `link` keeps the node: then it is alive, and reading it retains it.
    private unowned(safe) let unkept: Node

    /// A reference to `node`, whose link is `link`.
    init(_ node: Node, link: NodeLink) {
        self.link = link
        self.unkept = node
    }

    /// From any thread: the node, while it has holders; `nil` once the last one let go of it (it may
    /// still be in memory, and in the tree until the actions weak routes accepted for it are handled).
    /// Inlined, so that code generic over the node's type looks up no metadata to read it.
    @inline(__always)
    var ifHeld: Node? {
        var found: Node?
        _ = link.whileHeld { found = unkept }
        return found
    }

    /// From any thread: the node, while something keeps it in the tree.
    @inline(__always)
    var ifInTree: Node? {
        var found: Node?
        _ = link.whileInTree { found = unkept }
        return found
    }
}
