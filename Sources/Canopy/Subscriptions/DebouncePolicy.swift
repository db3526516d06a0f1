#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// When a subscription passes an accepted state on to its props and delivery.
///
/// States reach the policy after deduplication, on the store's queue. The policy decides which of them
/// are worth computing props for; the others are replaced by newer ones and never cost more than the
/// dedup check.
///
/// - ``debounce(for:maxWait:)`` waits until states stop arriving for `interval` seconds, then delivers
///   the last one (trailing edge). With `maxWait`, a steady stream of states that never pauses still
///   delivers at least once every `maxWait` seconds.
/// - ``throttle(for:)`` delivers the first state at once, then at most one state per `interval`; the
///   last state of a burst is always delivered.
/// - ``immediate`` delivers every accepted state.
///
/// ```swift
/// let subscription = store.subscribe(
///     props: SearchProps.init,
///     debounce: .debounce(for: 0.3, maxWait: 1),
///     observe: { props in print(props.results.count) }
/// )
/// ```
public struct DebouncePolicy: Sendable, Hashable {
    enum Mode: Sendable, Hashable {
        case immediate
        case trailing(interval: TimeInterval, maxWait: TimeInterval?)
        case throttle(interval: TimeInterval)
    }

    let mode: Mode

    private init(mode: Mode) {
        self.mode = mode
    }

    /// Delivers every state that passes deduplication, with no timer.
    public static let immediate = DebouncePolicy(mode: .immediate)

    /// Delivers the last state once no newer one has arrived for `interval` seconds.
    ///
    /// Each new state restarts the wait and replaces the pending one. Without `maxWait` a stream of
    /// states spaced closer than `interval` delivers nothing until it pauses; with `maxWait`, a pending
    /// state is delivered at the latest `maxWait` seconds after it started waiting.
    ///
    /// ```swift
    /// .debounce(for: .uiDebounce)
    /// .debounce(for: 0.3, maxWait: 1)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The quiet time, in seconds, that ends a burst; zero means ``immediate``. Must be
    ///     finite and not negative.
    ///   - maxWait: The longest a state may wait, in seconds; `nil` for no limit. Must be finite and
    ///     not negative.
    /// - Returns: The policy.
    public static func debounce(for interval: TimeInterval, maxWait: TimeInterval? = nil) -> DebouncePolicy {
        checked(interval: interval, maxWait: maxWait, call: "DebouncePolicy.debounce(for:maxWait:)")
    }

    /// Delivers the first state at once, then at most one state per `interval` seconds.
    ///
    /// A state that arrives inside the interval waits for its end and is replaced by newer ones; the
    /// last one is delivered when the interval ends, which opens the next interval.
    ///
    /// ```swift
    /// .throttle(for: 0.1)
    /// ```
    ///
    /// - Parameter interval: The shortest time between two deliveries, in seconds; zero means
    ///   ``immediate``. Must be finite and not negative.
    /// - Returns: The policy.
    public static func throttle(for interval: TimeInterval) -> DebouncePolicy {
        requireValid(interval, name: "interval", call: "DebouncePolicy.throttle(for:)")
        return interval == 0 ? .immediate : DebouncePolicy(mode: .throttle(interval: interval))
    }

    /// The trailing-edge policy for a `debounceFor:` argument, with misuse reported against `call`.
    static func checked(interval: TimeInterval, maxWait: TimeInterval? = nil, call: String) -> DebouncePolicy {
        requireValid(interval, name: "interval", call: call)
        if let maxWait {
            requireValid(maxWait, name: "maxWait", call: call)
        }
        guard interval > 0, maxWait != 0 else { return .immediate }
        return DebouncePolicy(mode: .trailing(interval: interval, maxWait: maxWait))
    }

    private static func requireValid(_ value: TimeInterval, name: String, call: String) {
        precondition(
            value.isFinite && value >= 0,
            "\(call) needs a finite, non-negative \(name) in seconds, got \(value)"
        )
    }

    /// Whether deciding needs the current time (every policy but ``immediate``).
    var needsClock: Bool {
        mode != .immediate
    }
}
