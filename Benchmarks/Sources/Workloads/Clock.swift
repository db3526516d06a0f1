import Dispatch

/// Monotonic nanoseconds.
@inline(__always)
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// Items per second for `count` items done in `nanoseconds`.
func perSecond(_ count: Int, _ nanoseconds: UInt64) -> Double {
    Double(count) * 1e9 / Double(max(nanoseconds, 1))
}

/// The value at `percentile` (0...100) of `samples`, by nearest rank.
func percentile(_ samples: [UInt64], _ percentile: Double) -> UInt64 {
    precondition(!samples.isEmpty, "percentile of no samples")
    let sorted = samples.sorted()
    let rank = Int((percentile / 100 * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}
