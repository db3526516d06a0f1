#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decides, action by action, whether a store tree is caught in a cycle (see ``CycleDetection``).
///
/// The engine feeds it each action's kind, the kinds of the actions that caused it, and the time on the
/// tree's clock; it returns the reports to make. It only counts: it never drops, delays or reorders an
/// action. Each crossing is reported once: a chain when it first goes past the depth limit, a kind when
/// its count first goes past the frequency limit (again only after it has fallen back within it).
struct CycleDetector: Sendable {
    /// The arrival times of one kind within the window, in a ring that holds one more than the limit.
    private struct Arrivals: Sendable {
        var times: [TimeInterval]
        var start = 0
        var count = 0
        var isReported = false

        init(capacity: Int) {
            times = Array(repeating: 0, count: capacity)
        }

        mutating func expire(before cutoff: TimeInterval) {
            while count > 0, times[start] <= cutoff {
                start = (start + 1) % times.count
                count -= 1
            }
        }

        mutating func append(_ time: TimeInterval) {
            if count == times.count {
                start = (start + 1) % times.count
                count -= 1
            }
            times[(start + count) % times.count] = time
            count += 1
        }

        /// Adds an arrival; returns the count within the window when it has just gone past `limit`.
        mutating func recordArrival(at now: TimeInterval, window: TimeInterval, limit: Int) -> Int? {
            expire(before: now - window)
            append(now)
            guard count > limit else {
                isReported = false
                return nil
            }
            guard !isReported else { return nil }
            isReported = true
            return count
        }
    }

    let configuration: CycleDetection
    private var arrivals: [String: Arrivals] = [:]

    init(_ configuration: CycleDetection) {
        self.configuration = configuration
    }

    /// Records one action and returns the limits it passed (usually none).
    ///
    /// - Parameters:
    ///   - kind: The action's kind (see ``kind(of:)``).
    ///   - causes: The kinds of the actions that led to it, first cause first; empty for an action sent
    ///     from outside the tree's handling of another. Its depth is `causes.count + 1`.
    ///   - now: The time on the tree's clock.
    /// - Returns: One report per limit the action passed for the first time.
    mutating func record(kind: String, causes: [String], now: TimeInterval) -> [CycleReport] {
        var reports: [CycleReport] = []
        if let limit = configuration.maxDepth, causes.count == limit {
            reports.append(CycleReport(reason: .depth(limit + 1, limit: limit), kind: kind, chain: causes + [kind]))
        }
        if let limit = configuration.maxPerWindow {
            let window = configuration.window
            let count = arrivals[kind, default: Arrivals(capacity: limit + 1)].recordArrival(
                at: now,
                window: window,
                limit: limit
            )
            if let count {
                reports.append(
                    CycleReport(
                        reason: .frequency(count, limit: limit, window: window),
                        kind: kind,
                        chain: causes + [kind]
                    )
                )
            }
        }
        return reports
    }

    /// The kind of an action: its case name for an enum (without its payload), its type name otherwise.
    static func kind(of action: some Any) -> String {
        let mirror = Mirror(reflecting: action)
        guard mirror.displayStyle == .enum else { return String(describing: type(of: action)) }
        if let label = mirror.children.first?.label { return label }
        return String(describing: action)
    }
}
