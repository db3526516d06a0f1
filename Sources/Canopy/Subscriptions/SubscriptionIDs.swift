#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ids of the observers that subscriptions add to a node: 128 random bits drawn once per process,
/// with a gate's address in their second half (``id(of:)``).
///
/// A subscription's observer is found through its gate (``ObserverIdentity/gate(_:)``), never by its id,
/// but a node's observers all have ids, and an app's ``Observer``s are found by theirs: a subscription's
/// must differ from every other observer's of the node, those of the app's own ``Observer``s included,
/// which are usually random UUIDs. These do: the first half is random bits of the process, and the
/// second half never repeats among the gates alive at once (two of them have two addresses). `UUID()`
/// reads 16 random bytes from the system on every call, about 220 instructions; an id made from a gate
/// takes none.
enum SubscriptionIDs {
    /// The random halves the ids start from.
    private static let base = (high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))

    /// The id of a subscription's record appended to a node's list, which holds the subscription's gate
    /// and is found through it (``StateNode/addObserver(_:observe:filter:)``): no id made here or by an
    /// app is equal to it, so a search by id never finds such a record. (A child's first observer, moved
    /// into a list from its cell, keeps the id made from its gate.)
    static let unlooked = UUID(high: base.high, low: ~base.low)

    /// The id of the observer that `gate` is the gate of: different from that of every other gate alive,
    /// and from ``unlooked``, which would take a gate at the address with every bit set.
    ///
    /// A gate's observer holds the gate (``CallGate``), so the gate outlives it, and an address is not
    /// used again while its gate lives: no two observers alive at once have the same id.
    static func id(of gate: CallGate) -> UUID {
        UUID(high: base.high, low: base.low ^ UInt64(UInt(bitPattern: ObjectIdentifier(gate))))
    }
}
