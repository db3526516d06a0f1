#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension UUID {
    /// The UUID whose first eight bytes are `high` and last eight `low`, most significant byte first: how
    /// Canopy makes identities from counters (``Effect/RunIDs/counted(_:)``) and from a subscription's
    /// gate (``SubscriptionIDs``).
    init(high: UInt64, low: UInt64) {
        let byte = { (half: UInt64, shift: UInt64) in UInt8(truncatingIfNeeded: half >> shift) }
        self.init(
            uuid: (
                byte(high, 56), byte(high, 48), byte(high, 40), byte(high, 32),
                byte(high, 24), byte(high, 16), byte(high, 8), byte(high, 0),
                byte(low, 56), byte(low, 48), byte(low, 40), byte(low, 32),
                byte(low, 24), byte(low, 16), byte(low, 8), byte(low, 0)
            )
        )
    }
}
