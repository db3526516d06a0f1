/// A node's attached children, in the order they attached, each held strongly by the list.
///
/// The list's reference is the tree's: a child is in the list only while it is attached, and it is taken
/// out (``remove(_:)``) on the tree's queue as soon as it detaches or the last thing that keeps it goes
/// (``TreeNode/keepers``). So the walk down reads children as plain pointers, with no weak load and no
/// reference counting: nothing but the queue removes a child, and the walk runs on the queue.
///
/// Removing leaves an empty slot, so no other child moves; each child knows its slot
/// (``TreeNode/listSlot``), so removal is O(1). The list is compacted once half of it is empty.
struct ChildList: ~Copyable {
    // Safety: `entries` is memory for `capacity` optional unmanaged references, the first `used` of them
    // initialised (a removed child leaves `nil`); each non-`nil` one holds a +1 retain of its child, taken
    // in `add` and given back in `remove` or `deinit`. The list has one owner, a node, and is used only
    // on the tree's queue (or in the node's `deinit`, when nothing else can reach it).
    private var entries: UnsafeMutablePointer<Unmanaged<TreeNode>?>?
    private var capacity: Int32 = 0
    private var used: Int32 = 0
    /// The number of children in the list.
    private(set) var liveCount: Int32 = 0

    init() {}

    deinit {
        guard let entries else { return }
        for index in 0..<Int(used) {
            entries[index]?.release()
        }
        entries.deallocate()
    }

    var isEmpty: Bool { liveCount == 0 }

    /// How many children ``forEachReversed(_:)`` may call its body with, at most.
    var slotCount: Int { Int(used) }

    /// Adds `child`, which has just attached, and retains it; sets its ``TreeNode/listSlot``.
    mutating func add(_ child: TreeNode) {
        if used == capacity {
            makeRoom()
        }
        // Safety: `makeRoom()` left `used < capacity`, so the slot is allocated.
        entries.unsafelyUnwrapped[Int(used)] = .passRetained(child)
        child.listSlot = used
        used += 1
        liveCount += 1
    }

    /// Takes `child`, which is in the list, out of it; returns the list's reference for the caller to
    /// release once it no longer uses the child.
    mutating func remove(_ child: TreeNode) -> Unmanaged<TreeNode> {
        let slot = Int(child.listSlot)
        // Safety: `child` is in the list, so `slot < used` and the entry holds it.
        guard let entries, slot < Int(used), let entry = entries[slot],
            entry.toOpaque() == Unmanaged.passUnretained(child).toOpaque()
        else {
            preconditionFailure("Internal inconsistency: a child was removed from a list it is not in")
        }
        entries[slot] = nil
        liveCount -= 1
        if liveCount == 0 {
            used = 0
        }
        return entry
    }

    /// Calls `body` with each child, last attached first. `body` must not add or remove children of
    /// this list (the walk down only reads it; attaching and detaching happen in observers' work items or
    /// after the node's own visit).
    @inline(__always)
    func forEachReversed(_ body: (Unmanaged<TreeNode>) -> Void) {
        guard let entries else { return }
        var index = Int(used)
        while index > 0 {
            index -= 1
            if let child = entries[index] {
                body(child)
            }
        }
    }

    /// Grows the memory, or compacts it when at least half of it is empty slots.
    private mutating func makeRoom() {
        let live = Int(liveCount)
        let newCapacity = live * 2 < Int(used) ? Swift.max(4, live * 2) : Swift.max(4, Int(capacity) * 2)
        let grown = UnsafeMutablePointer<Unmanaged<TreeNode>?>.allocate(capacity: newCapacity)
        var kept = 0
        if let entries {
            for index in 0..<Int(used) {
                guard let child = entries[index] else { continue }
                (grown + kept).initialize(to: child)
                // Safety: the entry holds a +1 retain of the child, so it is alive.
                child._withUnsafeGuaranteedRef { $0.listSlot = Int32(kept) }
                kept += 1
            }
            entries.deallocate()
        }
        entries = grown
        capacity = Int32(newCapacity)
        used = Int32(kept)
    }
}
