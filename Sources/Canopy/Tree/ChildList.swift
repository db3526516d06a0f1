/// A node's attached children, in the order they attached, each held strongly by the list.
///
/// The list's reference is the tree's: a child is in the list only while it is attached, and it is taken
/// out (``remove(_:)``) on the tree's queue as soon as it detaches or the last thing that keeps it goes
/// (``TreeNode/link``).
///
/// Removing leaves an empty slot, so no other child moves; each child knows its slot
/// (``TreeNode/listSlot``), so removal is O(1). The list is compacted once half of it is empty, only
/// when a child is added, which never happens during a walk. The walk down reads the slots as they are
/// when it comes to the node (``slots``, one reference to the array's block) and borrows each child from
/// them; a child's observers may empty slots of the list, or the whole list, meanwhile, which then
/// copies its block, and the walk skips the children that are no longer attached.
struct ChildList: ~Copyable {
    /// The children, each held by its entry, and `nil` in the slots of those removed.
    private var entries: ContiguousArray<TreeNode?> = []
    /// The number of non-`nil` entries.
    private var live = 0

    init() {}

    var isEmpty: Bool { live == 0 }

    /// The slots as they are now, each child held: what the walk down reads. Removals made meanwhile
    /// (a child's observers may detach its siblings) empty the list's own slots, not these.
    var slots: ContiguousArray<TreeNode?> { entries }

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
        var kept: ContiguousArray<TreeNode?> = []
        kept.reserveCapacity(Swift.max(4, live * 2))
        for case let child? in entries {
            child.listSlot = Int32(truncatingIfNeeded: kept.count)
            kept.append(child)
        }
        entries = kept
    }
}
