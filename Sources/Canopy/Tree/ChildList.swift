/// A node's attached children, in the order they attached, each held strongly by the list.
///
/// The list's reference is the tree's: a child is in the list only while it is attached, and it is taken
/// out (``remove(_:)``) on the tree's queue as soon as it detaches or the last thing that keeps it goes
/// (``TreeNode/link``). So the walk down reads children with no weak load and no reference counting:
/// nothing but the queue removes a child, and the walk runs on the queue.
///
/// Removing leaves an empty slot, so no other child moves; each child knows its slot
/// (``TreeNode/listSlot``), so removal is O(1). The list is compacted once half of it is empty. The walk
/// reads a slot at a time by index (``child(at:)``), so a child's observers may empty slots, or the whole
/// list, while the walk goes through it.
struct ChildList: ~Copyable {
    /// The children, each held by its entry, and `nil` in the slots of those removed.
    private var entries: [TreeNode?] = []
    /// The number of non-`nil` entries.
    private var live = 0

    init() {}

    var isEmpty: Bool { live == 0 }

    /// The number of slots, empty or not: the slots to read are `0..<slotCount`.
    var slotCount: Int { entries.count }

    /// The child in `slot`, or `nil` where one was removed.
    // Safety: unretained: the list holds the child while it is in it, and only the queue, which runs
    // the walk that reads it, removes it.
    @inline(__always)
    func child(at slot: Int) -> Unmanaged<TreeNode>? {
        guard let child = entries[slot] else { return nil }
        return .passUnretained(child)
    }

    /// Adds `child`, which has just attached, and holds it; sets its ``TreeNode/listSlot``.
    ///
    /// A full list grows by half as much again rather than doubling, as a node's list of observers does
    /// (a long list is then a sixth empty on average instead of a quarter), or is compacted when at
    /// least half of it is empty slots.
    mutating func add(_ child: TreeNode) {
        if entries.count == entries.capacity {
            if live * 2 < entries.count {
                compact()
            } else {
                entries.reserveCapacity(Swift.max(4, entries.count + entries.count / 2))
            }
        }
        child.listSlot = Int32(truncatingIfNeeded: entries.count)
        entries.append(child)
        live += 1
    }

    /// Takes `child`, which is in the list, out of it; returns the list's reference, for the caller to
    /// let go of once the list is back where it belongs (letting go of the last reference to a node runs
    /// its `deinit`, which may reach its parent's list).
    mutating func remove(_ child: TreeNode) -> TreeNode {
        let slot = Int(child.listSlot)
        guard slot < entries.count, let entry = entries[slot], entry === child else {
            preconditionFailure("Internal inconsistency: a child was removed from a list it is not in")
        }
        entries[slot] = nil
        live -= 1
        if live == 0 {
            entries.removeAll(keepingCapacity: true)
        }
        return entry
    }

    /// Moves the children to the front, in order, and gives each its new slot.
    private mutating func compact() {
        var kept: [TreeNode?] = []
        kept.reserveCapacity(Swift.max(4, live * 2))
        for case let child? in entries {
            child.listSlot = Int32(truncatingIfNeeded: kept.count)
            kept.append(child)
        }
        entries = kept
    }
}
