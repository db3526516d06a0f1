import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ids of the observers that subscriptions add (``StoreHandle/subscription(removeDuplicates:_:)``
/// and ``SubscriptionPipeline``): 128 random bits drawn once per process, with a counter added to their
/// second half.
///
/// An id must differ from every other observer's of the node, those of the app's own ``Observer``s
/// included, which are usually random UUIDs. These do: the first half is the same random 64 bits for
/// every subscription of the process, and the second half never repeats within it (2⁶⁴ subscriptions
/// would have to be made first). `UUID()` reads 16 random bytes from the system on every call, about
/// 220 instructions; this takes one atomic increment.
enum SubscriptionIDs {
    /// The random halves the ids start from.
    private static let base = (high: UInt64.random(in: .min ... .max), low: UInt64.random(in: .min ... .max))

    /// How many ids have been made.
    private static let made = Atomic<UInt64>(0)

    /// A new id, different from every other one this process makes.
    static func next() -> UUID {
        UUID(high: base.high, low: base.low &+ made.wrappingAdd(1, ordering: .relaxed).newValue)
    }
}
