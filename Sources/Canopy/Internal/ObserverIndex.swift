#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where each observer of a long ``ObserverStorage`` that is found by its id is (observer id → slot):
/// an app's ``Observer``, and a child's first subscription moved in from its cell, whose record holds no
/// gate. A record that holds its subscription's gate is not in it: the gate
/// keeps its slot (``ObserverRecord/subscription``).
///
/// An open-addressing table of 32-bit slot numbers, probed linearly. It keeps no ids: a bucket names a
/// slot, and the id is read from that slot of the list. So an observer costs the index 4 to 8 bytes,
/// where a dictionary of ids took 24 per bucket (about 40 bytes an observer at 10,000).
///
/// A bucket holds 0 when empty, -1 when its observer was removed (so later probes go past it), and
/// `slot + 1` otherwise. At most three quarters of the buckets are in use, removed ones included, so
/// every probe reaches an empty bucket; when an observer would need a bucket past that,
/// ``insert(_:slot:)`` declines and the owner rebuilds the index from the list. Used only on the tree's
/// queue, like the list.
final class ObserverIndex: ManagedBuffer<ObserverIndexHeader, Int32> {
    // Safety: the buckets are raw memory of the buffer, `mask + 1` of them, all initialised by `make`;
    // every bucket index is reduced with `& mask`, so no access falls outside them. The class is used
    // only by its node, on the tree's queue, which serialises every access.
    /// An index of the observers in `observers` that have no gate, with at least twice as many buckets
    /// as there are of them: a list of subscriptions' observers, which their gates find, needs a small
    /// one.
    static func make<State>(for observers: ObserverStorage<State>) -> ObserverIndex {
        var bucketCount = 16
        while bucketCount < 2 * observers.indexedCount {
            bucketCount *= 2
        }
        // `create` returns an instance of the class it is called on, typed as `ManagedBuffer`: the cast
        // always succeeds, and runs only when an index is made, not per subscription.
        let made = create(minimumCapacity: bucketCount) { _ in ObserverIndexHeader(mask: bucketCount - 1) }
        guard let index = made as? Self else {
            preconditionFailure("Internal inconsistency: ManagedBuffer.create made a \(type(of: made))")
        }
        index.withUnsafeMutablePointers { _, buckets in
            buckets.initialize(repeating: 0, count: bucketCount)
        }
        for slot in 0..<observers.used {
            if let id = observers.indexedID(at: slot) {
                let inserted = index.insert(id, slot: slot)
                precondition(inserted, "Internal inconsistency: a new observer index is full")
            }
        }
        return index
    }

    /// The slot of the observer with `id` in `observers`, the list this index describes.
    func slot<State>(of id: UUID, in observers: ObserverStorage<State>) -> Int? {
        withUnsafeMutablePointers { header, buckets in
            let mask = header.pointee.mask
            var bucket = Self.hash(id) & mask
            while true {
                let value = buckets[bucket]
                if value == 0 {
                    return nil
                }
                if value > 0, observers.holds(id, at: Int(value) - 1) {
                    return Int(value) - 1
                }
                bucket = (bucket + 1) & mask
            }
        }
    }

    /// Records that the observer with `id`, which the index does not hold, is at `slot`.
    ///
    /// - Returns: `false`, recording nothing, when the table is full: the owner rebuilds the index.
    func insert(_ id: UUID, slot: Int) -> Bool {
        withUnsafeMutablePointers { header, buckets in
            let mask = header.pointee.mask
            var bucket = Self.hash(id) & mask
            while buckets[bucket] > 0 {
                bucket = (bucket + 1) & mask
            }
            // A removed observer's bucket is taken again; an empty one only while a quarter stays empty.
            if buckets[bucket] == 0 {
                guard 4 * (header.pointee.inUse + 1) <= 3 * (mask + 1) else { return false }
                header.pointee.inUse += 1
            }
            buckets[bucket] = Int32(slot + 1)
            return true
        }
    }

    /// Forgets the observer with `id`, which the index holds at `slot`.
    func remove(_ id: UUID, slot: Int) {
        withUnsafeMutablePointers { header, buckets in
            let mask = header.pointee.mask
            var bucket = Self.hash(id) & mask
            while buckets[bucket] != Int32(slot + 1) {
                precondition(buckets[bucket] != 0, "Internal inconsistency: observer slot \(slot) is not indexed")
                bucket = (bucket + 1) & mask
            }
            buckets[bucket] = -1
        }
    }

    /// The bucket index bits for `id`: its two 64-bit halves mixed by a 64-bit finaliser with full
    /// avalanche, rather than the standard hasher over its 16 bytes, which cost most of a subscription.
    /// Ids are usually random (`UUID()`), but callers may pass their own; the mixing spreads ids that
    /// differ in a few bits over the whole table.
    private static func hash(_ id: UUID) -> Int {
        let (high, low) = withUnsafeBytes(of: id.uuid) { bytes in
            (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            )
        }
        var value = high ^ (low &* 0x9E37_79B9_7F4A_7C15)
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return Int(truncatingIfNeeded: value)
    }
}

/// The size of an ``ObserverIndex`` and how much of it is in use.
struct ObserverIndexHeader {
    /// The number of buckets (a power of two) minus one.
    let mask: Int
    /// The buckets that are not empty: those naming a slot and those whose observer was removed.
    var inUse = 0
}
