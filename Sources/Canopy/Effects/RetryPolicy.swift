#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Effect {
    /// How long an ``Effect/State`` waits before each retry.
    ///
    /// The delay before retry *n* (n ≥ 1) is `baseDelay × multiplierⁿ⁻¹`, capped at `maxDelay`, then
    /// shortened by up to `jitter` of itself. The default policy waits 2, 4, 8, 16… seconds.
    ///
    /// Jitter is not drawn from a global random source: it is derived from the run's identity and the
    /// retry number. A reducer that calls ``Effect/State/retryOrFailWith(_:)`` therefore stays a pure
    /// function, while different runs (and different clients) still spread their retries apart.
    ///
    /// ```swift
    /// let policy = Effect.RetryPolicy(baseDelay: 0.5, multiplier: 3, maxDelay: 30, jitter: 0.2)
    /// state.run(maxAttempts: 5, retryPolicy: policy)
    /// ```
    public struct RetryPolicy: Codable, Hashable, Sendable {
        /// The delay before the first retry, in seconds.
        public let baseDelay: TimeInterval

        /// The factor each further retry multiplies the delay by.
        public let multiplier: Double

        /// The longest delay, in seconds, or `nil` for no limit.
        public let maxDelay: TimeInterval?

        /// The largest fraction of a delay that jitter may remove, from 0 (none) to 1.
        public let jitter: Double

        /// Creates a retry policy.
        ///
        /// - Parameters:
        ///   - baseDelay: Seconds before the first retry; zero or more.
        ///   - multiplier: The growth factor between retries; zero or more (1 keeps the delay constant).
        ///   - maxDelay: The longest delay in seconds, or `nil` for no limit; zero or more.
        ///   - jitter: The largest fraction of each delay to remove at random, in `0...1`.
        public init(
            baseDelay: TimeInterval = 2,
            multiplier: Double = 2,
            maxDelay: TimeInterval? = nil,
            jitter: Double = 0
        ) {
            precondition(
                Self.isValid(baseDelay: baseDelay, multiplier: multiplier, maxDelay: maxDelay, jitter: jitter),
                "Effect.RetryPolicy.init(baseDelay:multiplier:maxDelay:jitter:) needs finite, non-negative "
                    + "delays and multiplier and a jitter in 0...1"
            )
            self.baseDelay = baseDelay
            self.multiplier = multiplier
            self.maxDelay = maxDelay
            self.jitter = jitter
        }

        /// Creates a policy from its encoded form, rejecting values ``init(baseDelay:multiplier:maxDelay:jitter:)``
        /// would refuse.
        ///
        /// - Parameter decoder: The decoder to read from.
        /// - Throws: `DecodingError` when a value is missing or out of range.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let baseDelay = try container.decode(TimeInterval.self, forKey: .baseDelay)
            let multiplier = try container.decode(Double.self, forKey: .multiplier)
            let maxDelay = try container.decodeIfPresent(TimeInterval.self, forKey: .maxDelay)
            let jitter = try container.decode(Double.self, forKey: .jitter)
            guard Self.isValid(baseDelay: baseDelay, multiplier: multiplier, maxDelay: maxDelay, jitter: jitter) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .baseDelay,
                    in: container,
                    debugDescription: "Invalid Effect.RetryPolicy values"
                )
            }
            self.init(baseDelay: baseDelay, multiplier: multiplier, maxDelay: maxDelay, jitter: jitter)
        }

        /// The policy Canopy and Puredux use by default: 2, 4, 8, 16… seconds, no limit, no jitter.
        public static let exponential = RetryPolicy()

        /// A policy that waits the same `delay` before every retry.
        ///
        /// - Parameter delay: Seconds before each retry; zero or more.
        /// - Returns: The policy.
        public static func constant(_ delay: TimeInterval) -> RetryPolicy {
            RetryPolicy(baseDelay: delay, multiplier: 1)
        }

        /// The delay before retry `retry` (1 for the first retry), without jitter: the longest the
        /// state will wait.
        ///
        /// - Parameter retry: The retry number, 1 or more.
        /// - Returns: The delay in seconds.
        public func delay(beforeRetry retry: Int) -> TimeInterval {
            precondition(retry >= 1, "Effect.RetryPolicy.delay(beforeRetry:) needs a retry number of 1 or more")
            let limit = maxDelay ?? .greatestFiniteMagnitude
            var delay = min(baseDelay, limit)
            var step = 1
            // Stops within about a thousand steps: the delay reaches the limit, stops changing, or
            // underflows to zero.
            while step < retry, delay > 0, delay < limit, multiplier != 1 {
                delay = min(delay * multiplier, limit)
                step += 1
            }
            return delay
        }

        /// The delay before retry `retry`, with jitter derived from `seed`.
        func delay(beforeRetry retry: Int, seed: UInt64) -> TimeInterval {
            let nominal = delay(beforeRetry: retry)
            guard jitter > 0 else { return nominal }
            var generator = SplitMix64(seed: seed ^ UInt64(truncatingIfNeeded: retry))
            let fraction = Double(generator.next() >> 11) / Double(1 << 53)  // uniform in 0..<1
            return nominal * (1 - jitter * fraction)
        }

        private static func isValid(
            baseDelay: TimeInterval,
            multiplier: Double,
            maxDelay: TimeInterval?,
            jitter: Double
        ) -> Bool {
            baseDelay.isFinite && baseDelay >= 0 && multiplier.isFinite && multiplier >= 0
                && (maxDelay.map { $0.isFinite && $0 >= 0 } ?? true) && (0...1).contains(jitter)
        }

        private enum CodingKeys: String, CodingKey {
            case baseDelay
            case multiplier
            case maxDelay
            case jitter
        }
    }
}

/// A small, fast pseudo-random generator with a 64-bit state (Steele, Lea and Flood's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
