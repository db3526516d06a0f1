import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The ids of the observers that subscriptions add (``StoreHandle/subscription(removeDuplicates:_:)``
/// and ``SubscriptionPipeline``): one random UUID drawn per process, with a counter added to its
/// second half.
///
/// An id must differ from every other observer's of the node, those of the app's own ``Observer``s
/// included, which are usually random UUIDs. These do: the first half is the same random 64 bits for
/// every subscription of the process, and the second half never repeats within it (2⁶⁴ subscriptions
/// would have to be made first). `UUID()` reads 16 random bytes from the system on every call, about
/// 220 instructions; this takes one atomic increment.
enum SubscriptionIDs {
    /// The random UUID the ids start from, as its two halves.
    private static let base: (high: UInt64, low: UInt64) = {
        let bytes = UUID().uuid
        let all = [
            bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7,
            bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15,
        ]
        let half = { (start: Int) in all[start..<start + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
        return (half(0), half(8))
    }()

    /// How many ids have been made.
    private static let made = Atomic<UInt64>(0)

    /// A new id, different from every other one this process makes.
    static func next() -> UUID {
        let (high, base) = Self.base
        let low = base &+ made.wrappingAdd(1, ordering: .relaxed).newValue
        return UUID(
            uuid: (
                byte(high, 7), byte(high, 6), byte(high, 5), byte(high, 4),
                byte(high, 3), byte(high, 2), byte(high, 1), byte(high, 0),
                byte(low, 7), byte(low, 6), byte(low, 5), byte(low, 4),
                byte(low, 3), byte(low, 2), byte(low, 1), byte(low, 0)
            )
        )
    }

    /// Byte `index` of `value`, counted from the least significant.
    @inline(__always)
    private static func byte(_ value: UInt64, _ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: value >> (8 * index))
    }
}
