/// A node's attached children, held weakly, in the order they attached.
///
/// Entries are dropped lazily: a child that is freed, or detached, leaves its entry until the next walk
/// over the list (or the next time the list grows past its prune threshold) removes it.
struct ChildList {
    private struct Entry {
        weak var node: TreeNode?
        /// The child's ``TreeNode/attachGeneration`` when it was added.
        let generation: UInt64
    }

    private var entries: [Entry] = []
    /// When `entries` reaches this size, ``add(_:)`` drops stale entries first. Doubling it after each
    /// pass keeps adding O(1) amortised however many children come and go.
    /// 32 bits, so that the list takes 12 bytes of its node (a node cannot hold 2³¹ children: see
    /// ``TreeNode/indexInParent``).
    private var pruneThreshold: Int32 = 8

    var isEmpty: Bool { entries.isEmpty }

    /// The number of entries, stale ones included.
    var count: Int { entries.count }

    /// Adds `child`, which has just attached.
    mutating func add(_ child: TreeNode) {
        if entries.count >= Int(pruneThreshold) {
            forEachLive { _ in }
            pruneThreshold = Int32(clamping: max(8, 2 * entries.count))
        }
        entries.append(Entry(node: child, generation: child.attachGeneration))
    }

    /// Calls `body` with every child that is alive and still attached through its entry, in order, and
    /// removes the other entries. `body` takes the strong reference loaded from the entry, so it can keep
    /// the child without retaining it again.
    mutating func forEachLive(_ body: (consuming TreeNode) -> Void) {
        // An empty array shares its storage: mutable access would allocate a buffer of its own.
        guard !entries.isEmpty else { return }
        var kept = 0
        let count = entries.count
        entries.withUnsafeMutableBufferPointer { entries in
            // Safety: `index` and `kept` stay below `count`, the buffer's size; each entry is read in
            // place (copying one out would copy its weak reference, which costs more than loading it).
            guard let base = entries.baseAddress else { return }
            for index in 0..<count {
                let entry = base + index
                guard let node = entry.pointee.node,
                    node.isAttached, node.attachGeneration == entry.pointee.generation
                else { continue }
                body(node)
                if kept != index {
                    swap(&entry.pointee, &base[kept])
                }
                kept += 1
            }
        }
        if kept < count {
            entries.removeSubrange(kept...)
        }
    }
}
