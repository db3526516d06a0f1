import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The ids Canopy gives observers: an ``Observer`` made without an id of its own, and the observer each
/// subscription adds (``StoreHandle/subscription(removeDuplicates:_:)`` and ``SubscriptionPipeline``).
/// 128 random bits drawn once per process, with a counter added to their second half.
///
/// An id must differ from every other observer's of the node, those the app made with ids of its own
/// included, which are usually random UUIDs. These do: the first half is the same random 64 bits for
/// every id of the process, and the second half never repeats within it (2⁶⁴ ids would have to be made
/// first). `UUID()` reads 16 random bytes from the system on every call: on Linux it opens, reads and
/// closes a device, three system calls that also let the tree's queue run dry between two
/// subscriptions; this takes one atomic increment.
@usableFromInline
enum ObserverIDs: Sendable {
    /// The random halves the ids start from.
    private static let base = (high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))

    /// How many ids have been made.
    private static let made = Atomic<UInt64>(0)

    /// A new id, different from every other one this process makes.
    @usableFromInline
    static func next() -> UUID {
        UUID(high: base.high, low: base.low &+ made.wrappingAdd(1, ordering: .relaxed).newValue)
    }
}
