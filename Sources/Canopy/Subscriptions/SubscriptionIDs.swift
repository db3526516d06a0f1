import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ids of the observers that subscriptions add: 128 random bits drawn once per process, with a
/// counter (``next()``, a props subscription's, ``SubscriptionPipeline``) or a gate's address
/// (``id(of:)``, a subscription whose handler runs on the tree's queue) in their second half.
///
/// An id must differ from every other observer's of the node, those of the app's own ``Observer``s
/// included, which are usually random UUIDs. These do: the first half is random bits of the process,
/// one value for counted ids and another for a gate's, and the second half never repeats among the
/// observers alive at once (2⁶⁴ subscriptions would have to be made first; two gates alive at once
/// have two addresses). `UUID()` reads 16 random bytes from the system on every call, about 220
/// instructions; a counted id takes one atomic increment, a gate's none.
enum SubscriptionIDs {
    /// The random halves the ids start from.
    private static let base = (high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))

    /// How many ids have been made.
    private static let made = Atomic<UInt64>(0)

    /// A new id, different from every other one this process makes.
    static func next() -> UUID {
        UUID(high: base.high, low: base.low &+ made.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// The id of a subscription's record appended to a node's list, which holds the subscription's gate
    /// and is found through it (``StateNode/addObserver(_:observe:filter:)``): no id made here or by an
    /// app is equal to it, so a search by id never finds such a record. (A child's first observer, moved
    /// into a list from its cell, keeps the id made from its gate.)
    static let unlooked = UUID(high: ~base.high, low: ~base.low)

    /// The id of the observer that `gate` is the gate of: different from that of every other gate alive.
    ///
    /// A gate's observer holds the gate (``CallGate``), so the gate outlives it, and an address is not
    /// used again while its gate lives: no two observers alive at once have the same id.
    static func id(of gate: CallGate) -> UUID {
        UUID(high: ~base.high, low: base.low ^ UInt64(UInt(bitPattern: ObjectIdentifier(gate))))
    }
}
