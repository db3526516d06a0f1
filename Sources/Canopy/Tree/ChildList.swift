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
    // One word in the node, the counts in the block: most nodes are leaves, with no block at all, and a
    // node's size is what W4 counts for every child store (the counts inline took 12 bytes more).
    //
    // Safety: `storage` is `nil` or one heap block: a `Header` at its start, then memory for
    // `header.capacity` optional unmanaged references at `entriesOffset`, the first `header.used` of them
    // initialised (a removed child leaves `nil`); each non-`nil` one holds a +1 retain of its child,
    // taken in `add` and given back in `remove` or `deinit`. The list has one owner, a node, and is used
    // only on the tree's queue (or in the node's `deinit`, when nothing else can reach it).
    private var storage: UnsafeMutableRawPointer?

    private struct Header {
        var capacity: Int32
        var used: Int32
        var live: Int32
    }

    /// Where the entries start in the block: after the 12-byte header, aligned for a reference.
    private static var entriesOffset: Int { 16 }

    init() {}

    deinit {
        guard let storage else { return }
        let header = Self.header(storage)
        let entries = Self.entries(storage)
        for index in 0..<Int(header.pointee.used) {
            entries[index]?.release()
        }
        storage.deallocate()
    }

    /// The header at the start of `storage`, a block made by `makeRoom()`.
    // Safety: callers pass only `self.storage`, non-`nil`, a block `makeRoom()` made (see below).
    private static func header(_ storage: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Header> {
        // Safety: `makeRoom()` binds the block's first bytes to `Header` and initialises them.
        storage.assumingMemoryBound(to: Header.self)
    }

    /// The entries of `storage`, a block made by `makeRoom()`.
    private static func entries(_ storage: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Unmanaged<TreeNode>?> {
        // Safety: `makeRoom()` binds the block from `entriesOffset` on to the entries' type; the first
        // `used` are initialised.
        (storage + entriesOffset).assumingMemoryBound(to: Unmanaged<TreeNode>?.self)
    }

    /// The number of children in the list.
    var liveCount: Int32 {
        guard let storage else { return 0 }
        return Self.header(storage).pointee.live
    }

    var isEmpty: Bool { liveCount == 0 }

    /// Whether a block exists with a free slot after the used ones.
    private var hasRoom: Bool {
        guard let storage else { return false }
        let header = Self.header(storage).pointee
        return header.used < header.capacity
    }

    /// Adds `child`, which has just attached, and retains it; sets its ``TreeNode/listSlot``.
    mutating func add(_ child: TreeNode) {
        if !hasRoom {
            makeRoom()
        }
        // Safety: `makeRoom()` left a block with `used < capacity`, so the slot is allocated.
        let storage = self.storage!
        let header = Self.header(storage)
        let used = header.pointee.used
        Self.entries(storage)[Int(used)] = .passRetained(child)
        child.listSlot = used
        header.pointee.used = used + 1
        header.pointee.live += 1
    }

    /// Takes `child`, which is in the list, out of it; returns the list's reference for the caller to
    /// release once it no longer uses the child.
    // Safety: the returned reference is the +1 retain the list took in `add`, handed to the caller.
    mutating func remove(_ child: TreeNode) -> Unmanaged<TreeNode> {
        let slot = Int(child.listSlot)
        // Safety: `child` is in the list, so the block exists, `slot < used` and the entry holds it.
        guard let storage, slot < Int(Self.header(storage).pointee.used),
            let entry = Self.entries(storage)[slot],
            entry.toOpaque() == Unmanaged.passUnretained(child).toOpaque()
        else {
            preconditionFailure("Internal inconsistency: a child was removed from a list it is not in")
        }
        let header = Self.header(storage)
        Self.entries(storage)[slot] = nil
        header.pointee.live -= 1
        if header.pointee.live == 0 {
            header.pointee.used = 0
        }
        return entry
    }

    /// The list's slots, in attach order: a child, or `nil` where one was removed. The walk down goes
    /// through them while observers run: a child's observers may take that child out of the list
    /// meanwhile, which empties its slot (and, when it was the last child, marks the slots unused, all of
    /// them being empty) and moves no other child. The buffer is valid until a child is added, which may
    /// move the block; nothing adds a child during the walk.
    // Safety: see the body: the first `used` entries are initialised; the block lives until `makeRoom`/`deinit`.
    var slots: UnsafeBufferPointer<Unmanaged<TreeNode>?> {
        // Safety: the first `used` entries of the block are initialised (see `storage`); the buffer
        // stays valid while the block does, which the caller ensures by adding no child meanwhile.
        guard let storage else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: Self.entries(storage), count: Int(Self.header(storage).pointee.used))
    }

    /// Grows the memory, or compacts it when at least half of it is empty slots.
    ///
    /// It grows by half as much again rather than doubling, as a node's list of observers does: a long
    /// list is then a sixth empty on average instead of a quarter (a parent of 10,000 children keeps
    /// about 10 bytes per child for their entries rather than 13), for about one more move per child
    /// over the list's growth.
    private mutating func makeRoom() {
        let old = storage.map { Self.header($0).pointee } ?? Header(capacity: 0, used: 0, live: 0)
        let live = Int(old.live)
        let capacity = Int(old.capacity)
        let newCapacity =
            live * 2 < Int(old.used) ? Swift.max(4, live * 2) : Swift.max(4, capacity + capacity / 2)
        // Safety: owned by the list from `storage = grown` below until the next `makeRoom` or `deinit`
        // frees it; sized for the header at 0 and `newCapacity` entries at `entriesOffset` (16, past the
        // 12-byte header and a multiple of the entries' alignment), aligned for both.
        let grown = UnsafeMutableRawPointer.allocate(
            byteCount: Self.entriesOffset + newCapacity * MemoryLayout<Unmanaged<TreeNode>?>.stride,
            alignment: Swift.max(MemoryLayout<Header>.alignment, MemoryLayout<Unmanaged<TreeNode>?>.alignment)
        )
        // Safety: the fresh block is bound once, to the types `header(_:)` and `entries(_:)` later assume.
        grown.bindMemory(to: Header.self, capacity: 1)
        let grownEntries = (grown + Self.entriesOffset).bindMemory(
            to: Unmanaged<TreeNode>?.self,
            capacity: newCapacity
        )
        var kept = 0
        if let storage {
            let entries = Self.entries(storage)
            for index in 0..<Int(old.used) {
                guard let child = entries[index] else { continue }
                (grownEntries + kept).initialize(to: child)
                // Safety: the entry holds a +1 retain of the child, so it is alive.
                child._withUnsafeGuaranteedRef { $0.listSlot = Int32(kept) }
                kept += 1
            }
            storage.deallocate()
        }
        Self.header(grown).initialize(to: Header(capacity: Int32(newCapacity), used: Int32(kept), live: Int32(kept)))
        storage = grown
    }
}
