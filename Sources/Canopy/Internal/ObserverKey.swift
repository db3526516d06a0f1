#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An observer's id as the key of a node's observer index: hashed by mixing its two 64-bit halves
/// instead of running the standard hasher over its 16 bytes, which cost most of a subscription.
///
/// Ids are usually random (`UUID()`), but callers may pass their own; the mixing (a 64-bit finaliser
/// with full avalanche) spreads ids that differ in a few bits over the whole table, and the
/// dictionary's per-instance seed is mixed in as the standard hasher would.
struct ObserverKey: Hashable {
    let high: UInt64
    let low: UInt64

    init(_ id: UUID) {
        let bytes = id.uuid
        high = withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self) }
        low = withUnsafeBytes(of: bytes) { $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(high)
        hasher.combine(low)
    }

    // Dictionary asks for this rather than `hash(into:)`. It agrees with `==`: it depends on `high`
    // and `low` only.
    func _rawHashValue(seed: Int) -> Int {
        var value = high ^ (low &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(UInt(bitPattern: seed))
        value ^= value >> 33
        value &*= 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value &*= 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 33
        return Int(Int64(bitPattern: value))
    }
}
