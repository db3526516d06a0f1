#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A node's observers, in subscription order, in one heap block.
///
/// Removing an observer leaves an empty slot, so no other observer moves and removal costs O(1); the
/// owner compacts the list (``compacted(capacity:)``) once half of it is empty. Slots are what the
/// owner's index (observer id → slot) points at, and what a subscription's gate keeps
/// (``ObserverRecord/subscription``): the list writes a record's slot into its gate whenever it puts the
/// record in a slot.
///
/// Canopy's generic code runs unspecialised, and there each call on an array of a generic struct
/// (`[Observer<State>]`) passes the element's metadata, which the runtime finds with a hashed lookup of
/// several hundred instructions: once per node per action. The methods of this class find it through the
/// object instead, and walk the observers in place.
@usableFromInline
final class ObserverStorage<State>: ManagedBuffer<ObserverStorageHeader, ObserverRecord<State>?> {
    // Safety: the slots are raw memory of the buffer; the first `used` of them are initialised (an
    // empty one holds `nil`), and every access stays below `used`, or below the capacity for `append`,
    // which `hasRoom` checks first. The list is used only by its node, on the tree's queue.
    deinit {
        withUnsafeMutablePointers { header, slots in
            _ = slots.deinitialize(count: header.pointee.used)
        }
    }

    /// An empty list with room for at least `capacity` observers.
    static func make(capacity: Int) -> ObserverStorage<State> {
        // `create` returns an instance of the class it is called on, typed as `ManagedBuffer`: the cast
        // always succeeds, and runs only when a list is made or grows, not per observer.
        // The capacity is read once, here: `ManagedBuffer.capacity` asks the allocator for the block's
        // size on every read (on Linux, `malloc_usable_size`), about 40 instructions per subscription.
        let made = create(minimumCapacity: capacity) { ObserverStorageHeader(capacity: $0.capacity) }
        guard let list = made as? Self else {
            preconditionFailure("Internal inconsistency: ManagedBuffer.create made a \(type(of: made))")
        }
        return list
    }

    /// Reads or writes the counts in place. `header`, a stored property of `ManagedBuffer`, has its
    /// exclusive access checked at run time on every use from this module (about 40 instructions).
    @inline(__always)
    private func counts<Result>(_ body: (inout ObserverStorageHeader) -> Result) -> Result {
        withUnsafeMutablePointerToHeader { body(&$0.pointee) }
    }

    /// The number of slots in use, empty ones included.
    var used: Int { counts { $0.used } }

    /// The number of observers.
    var live: Int { counts { $0.live } }

    /// Whether another observer fits without growing.
    var hasRoom: Bool { counts { $0.used < $0.capacity } }

    /// Whether enough slots are empty that compacting pays for itself.
    var isSparse: Bool { counts { $0.used >= 8 && $0.live * 2 < $0.used } }

    /// Appends an observer with `id` that calls `observe`, or runs `filter` in its place
    /// (``ObserverRecord``), and tells `gate`, the subscription's if it is one, its slot; there must be
    /// room (``hasRoom``).
    ///
    /// The observer is made in its slot, in a closure that returns it as the slot's type: an observer
    /// made by the caller and copied in was then destroyed there, in code generic over the state, through
    /// its metadata, looked up by hashing (about 330 instructions).
    ///
    /// - Returns: The observer's slot.
    func append(
        id: UUID,
        filter: AtomicProjectionFilter<State>? = nil,
        gate: CallGate? = nil,
        observe: @escaping Observer<State>.StateHandler
    ) -> Int {
        let slot = used
        initializeElement(at: slot) { ObserverRecord(id: id, filter: filter, gate: gate, observe: observe) }
        gate?.slot = slot
        counts { counts in
            counts.used += 1
            counts.live += 1
        }
        return slot
    }

    /// Empties `slot`; returns what it held, or `nil` when it held no observer.
    func remove(at slot: Int) -> RemovedObserver? {
        guard slot < used, let observer = exchangeElement(at: slot, with: nil) else { return nil }
        counts { $0.live -= 1 }
        return observer.subscription == nil ? .indexed(id: observer.id) : .unindexed
    }

    /// A list with this one's observers only, in order, and room for at least `capacity`: they are
    /// moved, a run of consecutive ones at a time, and this list is left empty.
    ///
    /// Moving rather than copying spares a retain per observer here and a release per observer when
    /// this list goes; and a run moved in one call of a method of `ManagedBuffer` takes no runtime type
    /// lookup (see ``ManagedBuffer/moveElements(_:count:into:at:)``).
    func compacted(capacity: Int) -> ObserverStorage<State> {
        let copy = Self.make(capacity: Swift.max(capacity, live))
        let used = self.used
        var moved = 0
        var index = 0
        while index < used {
            guard isOccupied(index) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < used, isOccupied(end) {
                end += 1
            }
            moveElements(index, count: end - index, into: copy, at: moved)
            moved += end - index
            index = end
        }
        // The slots left are empty (`nil`), which holds nothing to release.
        counts { $0.empty() }
        copy.counts { counts in
            counts.used = moved
            counts.live = moved
        }
        copy.tellGatesTheirSlots()
        return copy
    }

    /// Writes each record's slot into its gate, if it has one (``ObserverRecord/subscription``), after
    /// the records moved.
    private func tellGatesTheirSlots() {
        withUnsafeMutablePointers { header, slots in
            for slot in 0..<header.pointee.used {
                (slots + slot).pointee?.subscription?.gate.slot = slot
            }
        }
    }

    /// Whether `slot`, which must be below ``used``, holds an observer; read in place.
    private func isOccupied(_ slot: Int) -> Bool {
        withUnsafeMutablePointers { _, slots in
            (slots + slot).pointee?.id != nil
        }
    }

    /// A list with room for `capacity` observers holding this one's, in the same slots: they are moved,
    /// not copied one by one, and this list is left empty. `capacity` must be at least ``used``.
    ///
    /// Growing this way keeps every slot, so an index of slots stays valid; and one bulk move costs a
    /// single runtime type lookup, where copying each observer costs two.
    func grown(capacity: Int) -> ObserverStorage<State> {
        let copy = Self.make(capacity: capacity)
        withUnsafeMutablePointers { header, slots in
            copy.withUnsafeMutablePointers { copyHeader, copySlots in
                copySlots.moveInitialize(from: slots, count: header.pointee.used)
                copyHeader.pointee.used = header.pointee.used
                copyHeader.pointee.live = header.pointee.live
            }
            header.pointee.empty()
        }
        return copy
    }

    /// The slot of the observer with `id`, found by scanning.
    func slot(of id: UUID) -> Int? {
        withUnsafeMutablePointers { header, slots in
            for index in 0..<header.pointee.used where Self.holds(id, in: &(slots + index).pointee) {
                return index
            }
            return nil
        }
    }

    /// The id of the observer in `slot` when the node's index of ids holds it (it has no gate,
    /// ``ObserverRecord/subscription``); `nil` when it has a gate, or the slot is empty or past ``used``.
    func indexedID(at slot: Int) -> UUID? {
        withUnsafeMutablePointers { header, slots in
            guard slot < header.pointee.used, (slots + slot).pointee?.subscription == nil else { return nil }
            return (slots + slot).pointee?.id
        }
    }

    /// The number of observers an index of ids holds (``indexedID(at:)``), counted slot by slot.
    var indexedCount: Int {
        (0..<used).count { indexedID(at: $0) != nil }
    }

    /// Whether `slot`, which may be past ``used``, holds the observer of `gate`: a record with that gate,
    /// or, for a child's first observer moved from its cell into slot 0, whose record has no gate, the id
    /// made from the gate (``CallGate/observerID``). That observer stays in slot 0 while it lives
    /// (``NodeObservers/movedIntoList()``).
    func holdsObserver(of gate: CallGate, at slot: Int) -> Bool {
        withUnsafeMutablePointers { header, slots in
            guard slot < header.pointee.used else { return false }
            // Compared in place, as `holds(_:in:)` compares ids: bound to a local, the record's gate would
            // be retained and released.
            if (slots + slot).pointee?.subscription?.gate === gate {
                return true
            }
            return (slots + slot).pointee?.subscription == nil
                && Self.holds(gate.observerID, in: &(slots + slot).pointee)
        }
    }

    /// Whether the observer in `slot`, which must be below ``used``, has `id`.
    func holds(_ id: UUID, at slot: Int) -> Bool {
        withUnsafeMutablePointers { _, slots in
            Self.holds(id, in: &(slots + slot).pointee)
        }
    }

    /// Whether `observer` has `id`. The slot comes in `inout`, so the id is read in place rather than
    /// after a copy of the observer (a retain and a release of its closure), and compared as two words
    /// rather than through `memcmp`.
    @inline(__always)
    private static func holds(_ id: UUID, in observer: inout ObserverRecord<State>?) -> Bool {
        guard let other = observer?.id else { return false }
        return withUnsafeBytes(of: id.uuid) { wanted in
            withUnsafeBytes(of: other.uuid) { found in
                wanted.loadUnaligned(as: UInt64.self) == found.loadUnaligned(as: UInt64.self)
                    && wanted.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        == found.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            }
        }
    }

    /// Calls every observer with `state`, in order; returns the slots of those that answered `.dead`,
    /// or `nil` when none did (an empty array would still be released after each call).
    ///
    /// Each entry is borrowed in place (`entries[index]` on an array would copy it: a retain and a
    /// release). Observers cannot change the list meanwhile: subscribing and cancelling are work items
    /// that the tree's queue runs later.
    ///
    /// Inlined where it is called: into a child's composition, made where `with(_:reducer:)` is inlined
    /// and compiled for the state's type there, and into the node's own notification, in the walk's
    /// visit. As a call of its own, with its loop in a closure of its own, it cost W3 about 40
    /// instructions per child.
    @inlinable
    @inline(__always)
    func notify(_ state: State) -> [Int]? {
        var dead: [Int]?
        withUnsafeMutablePointers { header, slots in
            // The walk moves a pointer to the end rather than counting an index: with the index, the
            // count, the slot and the call's registers, the loop spilled the count to the stack.
            let end = slots + header.pointee.used
            var slot = slots
            while slot != end {
                if let status = Self.call(&slot.pointee, with: state), status == .dead {
                    dead = (dead ?? []) + [slot - slots]
                }
                slot += 1
            }
        }
        return dead
    }

    /// Calls the observers with `state`, as ``notify(_:)`` does, if any is live. A list whose observers
    /// have all gone stays in its node: while it is empty, `state` is not evaluated, so no state is made
    /// or copied for it.
    @inlinable
    @inline(__always)
    func notifyIfAnyLive(_ state: @autoclosure () -> State) -> [Int]? {
        guard withUnsafeMutablePointerToHeader({ $0.pointee.storedLive }) > 0 else { return nil }
        return notify(state())
    }

    /// Calls `observer` with `state`, if the slot holds one. An observer with a dedup check of its own
    /// has it run here, in the caller's loop (``ObserverRecord``).
    ///
    /// The slot comes in `inout`: an exclusive access, which the callee cannot touch, so the compiler
    /// borrows the closure in place. Read as a value, it would be copied out first, a retain and a
    /// release of the observer's context on every call (about 40 instructions). `state` is borrowed
    /// too: made by an autoclosure, it was copied for each observer, through its value witnesses in
    /// code generic over it.
    @inlinable
    @inline(__always)
    static func call(_ observer: inout ObserverRecord<State>?, with state: borrowing State) -> ObserverStatus? {
        // Each read is a chain of optional accesses in the slot, so both are borrowed in place: bound to
        // a local first (`if let`), the filter was retained and released around its check.
        if let status = observer?.subscription?.check(state) {
            return status
        }
        return observer?.observe(state)
    }
}

/// What emptying a slot of a node's observers took out (``ObserverStorage/remove(at:)``).
enum RemovedObserver: Equatable {
    /// An observer with `id`, which the node's index of ids holds, if the node has one.
    case indexed(id: UUID)
    /// An observer that no index holds: one whose record holds its subscription's gate, which finds it
    /// (``ObserverRecord/subscription``), or a child's observer inside its cell (a node with an index
    /// has a list).
    case unindexed
}

/// How many slots an ``ObserverStorage`` has, how many it uses, and how many of them hold an observer:
/// 32 bits each (a list never holds 2³¹ observers). The header takes 12 bytes, and the slots after it
/// start at the next multiple of 8.
@usableFromInline
struct ObserverStorageHeader: Sendable {
    @usableFromInline
    var storedUsed: Int32 = 0
    @usableFromInline
    var storedLive: Int32 = 0
    /// The slots the list's block has room for.
    private let storedCapacity: Int32

    /// The header of an empty list with room for `capacity` observers.
    init(capacity: Int) {
        storedCapacity = Int32(capacity)
    }

    var capacity: Int { Int(storedCapacity) }

    @inlinable
    var used: Int {
        get { Int(storedUsed) }
        set { storedUsed = Int32(newValue) }
    }

    var live: Int {
        get { Int(storedLive) }
        set { storedLive = Int32(newValue) }
    }

    /// Counts no slot in use: the list's observers were moved out.
    mutating func empty() {
        storedUsed = 0
        storedLive = 0
    }
}

// Writing a slot from `ObserverStorage`'s own methods calls a generic function of `ObserverRecord<State>?`
// (`initialize(to:)`, an assignment), and unspecialised code looks that type's metadata up in the
// runtime's table for each call, twice (the optional and the observer), about 650 instructions per
// subscription. In a method of `ManagedBuffer` itself, `Element` is a generic parameter of the object's
// class, read from the object: these two are not inlined, so that they stay where that holds.
extension ManagedBuffer {
    /// Initialises the element at `index`, which must be uninitialised memory of the buffer, with what
    /// `make` returns, moved in.
    @inline(never)
    fileprivate final func initializeElement(at index: Int, with make: () -> Element) {
        // Safety: the caller passes the index of an uninitialised element within the capacity.
        withUnsafeMutablePointerToElements { ($0 + index).initialize(to: make()) }
    }

    /// Moves the `count` elements from `index` on, which must be initialised, into `other` from
    /// `otherIndex` on, which must be uninitialised memory of it; they are left uninitialised here.
    @inline(never)
    fileprivate final func moveElements(_ index: Int, count: Int, into other: ManagedBuffer, at otherIndex: Int) {
        // Safety: the caller passes ranges of initialised elements here and uninitialised ones there,
        // within each buffer's capacity.
        withUnsafeMutablePointerToElements { elements in
            other.withUnsafeMutablePointerToElements { otherElements in
                (otherElements + otherIndex).moveInitialize(from: elements + index, count: count)
            }
        }
    }

    /// Replaces the element at `index`, which must be initialised, with `value`; returns the old one.
    @inline(never)
    fileprivate final func exchangeElement(at index: Int, with value: Element) -> Element {
        // Safety: the caller passes the index of an initialised element.
        withUnsafeMutablePointerToElements { elements in
            let old = (elements + index).move()
            (elements + index).initialize(to: value)
            return old
        }
    }
}
