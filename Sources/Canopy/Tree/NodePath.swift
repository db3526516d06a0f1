/// The nodes one action was reduced by, the receiving node first and the root last: the engine's
/// scratch space between its walk up and its walk down.
///
/// It does not retain the nodes: while an action is processed, the receiving node is held by whoever
/// handed it over (the inbox entry, the caller of `receive`), and every other node on the path is its
/// ancestor, held by it. The path is emptied after every action.
// Safety: unretained, for the reason in the paragraph above; `StoreTree` empties it after each action.
typealias NodePath = [Unmanaged<TreeNode>]

// Safety: as `NodePath`: `append` takes a node the caller holds, or an ancestor of it.
extension [Unmanaged<TreeNode>] {
    @inline(__always)
    mutating func append(_ node: TreeNode) {
        append(.passUnretained(node))
    }
}
