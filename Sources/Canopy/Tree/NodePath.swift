/// The nodes above the receiving node that one action was reduced by, its parent first and the root
/// last: the engine's scratch space between its walk up and its walk down. Emptied after every action.
typealias NodePath = ContiguousArray<PathNode>

/// A node of a ``NodePath``: the node, held, and the identity of the node below it on the path.
///
/// The walk up gets each node from its child's `reduceOwn`, as a reference of its own, and moves it
/// here: holding the path's nodes costs no reference count of its own. The walk down tells the child
/// on the path among a node's children by `childOnPath`.
struct PathNode {
    let node: TreeNode
    let childOnPath: ObjectIdentifier
}

/// Where the walk up records the nodes an action is reduced by (``StoreTree/reduceUp(_:from:path:)``):
/// a ``NodePath`` when something listens, ``UnrecordedPath`` otherwise. The walk is compiled for each,
/// so recording nothing costs nothing.
protocol PathRecorder {
    /// Notes that the action was reduced by `node`, an ancestor of the receiving node, whose child on
    /// the path is `child`.
    mutating func record(_ node: consuming TreeNode, above child: ObjectIdentifier)
}

extension ContiguousArray<PathNode>: PathRecorder {
    @inline(__always)
    mutating func record(_ node: consuming TreeNode, above child: ObjectIdentifier) {
        append(PathNode(node: node, childOnPath: child))
    }
}

/// The path of an action nothing listens to: nothing is recorded.
struct UnrecordedPath: PathRecorder {
    @inline(__always)
    mutating func record(_ node: consuming TreeNode, above child: ObjectIdentifier) {}
}
