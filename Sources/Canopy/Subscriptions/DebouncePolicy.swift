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
///   the last one (trailing edge). A steady stream of states that never pauses still delivers at least
///   once every `maxWait` seconds; by default ``defaultMaxWait(for:)``, 0.1 s for the usual short
///   intervals. This is what every `debounceFor:` parameter builds, and ``default`` is its UI form.
/// - ``trailing(for:)`` is Puredux's debounce: trailing edge only, with no maximum wait, so a stream
///   that never pauses delivers nothing until it stops.
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

    /// The policy subscribers get when they pass nothing: a `TimeInterval.uiDebounce` (7 ms) debounce
    /// that delivers at least every 0.1 s under a steady stream.
    ///
    /// ```swift
    /// store.subscribe(.mainActor(debounce: .default), props: Props.init, observe: render)
    /// ```
    public static let `default` = DebouncePolicy.debounce(for: .uiDebounce)

    /// The longest a state waits under ``debounce(for:maxWait:)`` when no `maxWait` is given: 0.1 s, or
    /// four intervals when that is longer.
    ///
    /// A debounce of a few milliseconds thus still shows a steady stream ten times a second, and a long
    /// debounce (a search field's 0.3 s) lets at most four of its intervals go by without a delivery.
    ///
    /// ```swift
    /// DebouncePolicy.defaultMaxWait(for: .uiDebounce)  // 0.1
    /// DebouncePolicy.defaultMaxWait(for: 0.3)  // 1.2
    /// ```
    ///
    /// - Parameter interval: The debounce interval, in seconds.
    /// - Returns: The maximum wait, in seconds.
    public static func defaultMaxWait(for interval: TimeInterval) -> TimeInterval {
        max(0.1, 4 * interval)
    }

    /// Delivers the last state once no newer one has arrived for `interval` seconds, or once it has
    /// waited `maxWait` seconds.
    ///
    /// Each new state restarts the wait and replaces the pending one. A pending state is delivered at
    /// the latest `maxWait` seconds after it started waiting, so a stream of states spaced closer than
    /// `interval` still delivers regularly. For no limit at all (Puredux's behaviour), use
    /// ``trailing(for:)``.
    ///
    /// ```swift
    /// .debounce(for: .uiDebounce)  // at least every 0.1 s
    /// .debounce(for: 0.3, maxWait: 1)
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The quiet time, in seconds, that ends a burst; zero means ``immediate``. Must be
    ///     finite and not negative.
    ///   - maxWait: The longest a state may wait, in seconds; `nil` picks ``defaultMaxWait(for:)``.
    ///     Must be finite and not negative.
    /// - Returns: The policy.
    public static func debounce(for interval: TimeInterval, maxWait: TimeInterval? = nil) -> DebouncePolicy {
        checked(interval: interval, maxWait: maxWait, call: "DebouncePolicy.debounce(for:maxWait:)")
    }

    /// Delivers the last state once no newer one has arrived for `interval` seconds, however long that
    /// takes: Puredux's debounce.
    ///
    /// A stream of states spaced closer than `interval` delivers nothing until it pauses. Prefer
    /// ``debounce(for:maxWait:)`` for anything on screen.
    ///
    /// ```swift
    /// .trailing(for: 0.3)
    /// ```
    ///
    /// - Parameter interval: The quiet time, in seconds, that ends a burst; zero means ``immediate``.
    ///   Must be finite and not negative.
    /// - Returns: The policy.
    public static func trailing(for interval: TimeInterval) -> DebouncePolicy {
        requireValid(interval, name: "interval", call: "DebouncePolicy.trailing(for:)")
        return interval == 0 ? .immediate : DebouncePolicy(mode: .trailing(interval: interval, maxWait: nil))
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

    /// The debounce policy for a `debounceFor:` argument (with the default maximum wait unless `maxWait`
    /// is given), with misuse reported against `call`.
    static func checked(interval: TimeInterval, maxWait: TimeInterval? = nil, call: String) -> DebouncePolicy {
        requireValid(interval, name: "interval", call: call)
        if let maxWait {
            requireValid(maxWait, name: "maxWait", call: call)
        }
        guard interval > 0, maxWait != 0 else { return .immediate }
        let wait = maxWait ?? defaultMaxWait(for: interval)
        return DebouncePolicy(mode: .trailing(interval: interval, maxWait: wait))
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
