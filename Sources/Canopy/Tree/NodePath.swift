/// The nodes one action was reduced by, the receiving node first and the root last: the engine's
/// scratch space between its walk up and its walk down.
///
/// It does not retain the nodes: while an action is processed, the receiving node is held by whoever
/// handed it over (the inbox entry, the caller of `receive`), and every other node on the path is its
/// ancestor, held by it. The path is emptied after every action.
// Safety: unretained, for the reason in the paragraph above; `StoreTree` empties it after each action.
typealias NodePath = [Unmanaged<TreeNode>]

/// Where the walk up records the nodes an action is reduced by (``StoreTree/reduceUp(_:from:path:)``):
/// a ``NodePath`` when something listens, ``UnrecordedPath`` otherwise. The walk is compiled for each,
/// so recording nothing costs nothing.
protocol PathRecorder {
    /// Notes that the action was reduced by `node`, which the caller holds, or an ancestor of it.
    mutating func record(_ node: TreeNode)
}

// Safety: as `NodePath`: `record` takes a node the caller holds, or an ancestor of it.
extension [Unmanaged<TreeNode>]: PathRecorder {
    @inline(__always)
    mutating func record(_ node: TreeNode) {
        append(.passUnretained(node))
    }
}

/// The path of an action nothing listens to: nothing is recorded.
struct UnrecordedPath: PathRecorder {
    @inline(__always)
    mutating func record(_ node: TreeNode) {}
}
