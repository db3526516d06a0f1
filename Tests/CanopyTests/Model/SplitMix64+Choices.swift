@testable import Canopy

// The library's seeded generator (the retry policy's jitter uses it), so random tests replay exactly
// from their seed on every platform.
extension SplitMix64 {
    /// A number in `0..<bound`.
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// `true` with probability `percent` / 100.
    mutating func chance(_ percent: Int) -> Bool {
        next(below: 100) < percent
    }
}
