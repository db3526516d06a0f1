/// The nodes one action was reduced by, the receiving node first and the root last: the engine's
/// scratch space between its walk up and its walk down. One owner, reused for every action.
///
/// It does not retain the nodes: while an action is processed, the receiving node is held by whoever
/// handed it over (the inbox entry, the caller of `receive`), and every other node on the path is its
/// ancestor, held by it.
struct NodePath: ~Copyable {
    private var nodes: UnsafeMutablePointer<Unmanaged<TreeNode>>
    private var capacity: Int
    /// The number of nodes on the path.
    private(set) var count = 0

    init() {
        capacity = 16
        nodes = .allocate(capacity: capacity)
    }

    deinit {
        // Safety: `Unmanaged` is a trivial type, so the slots need no deinitialisation.
        nodes.deallocate()
    }

    /// The node at `index`, unretained: the caller relies on the path's guarantee that it stays alive
    /// while the action is processed.
    subscript(index: Int) -> Unmanaged<TreeNode> {
        precondition(index >= 0 && index < count, "Internal inconsistency: path index \(index) of \(count)")
        return nodes[index]
    }

    /// Whether `node` is the node at `index`, compared by identity without retaining either. Sound because
    /// the path is emptied after every action, so an entry never outlives the node it names.
    func holds(_ node: Unmanaged<TreeNode>, at index: Int) -> Bool {
        nodes[index].toOpaque() == node.toOpaque()
    }

    mutating func append(_ node: TreeNode) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Unmanaged<TreeNode>>.allocate(capacity: 2 * capacity)
            grown.moveInitialize(from: nodes, count: count)
            nodes.deallocate()
            nodes = grown
            capacity *= 2
        }
        (nodes + count).initialize(to: .passUnretained(node))
        count += 1
    }

    mutating func removeAll() {
        count = 0
    }
}
