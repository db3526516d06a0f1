#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a store tree's cycle detection found: which limit was passed, and by which chain of actions.
///
/// ```swift
/// if case .cycle(_, let report) = event {
///     print(report.chain.joined(separator: " → "))
/// }
/// ```
public struct CycleReport: Sendable, Hashable, CustomStringConvertible {
    /// The limit that was passed.
    public enum Reason: Sendable, Hashable {
        /// The causal chain reached `depth` links, more than the allowed `limit`.
        case depth(Int, limit: Int)

        /// `count` actions of the kind arrived within `window` seconds, more than the allowed `limit`.
        case frequency(Int, limit: Int, window: TimeInterval)
    }

    /// The limit that was passed.
    public let reason: Reason

    /// The kind of the action that passed it (its enum case name, or its type name).
    public let kind: String

    /// The kinds of the actions in the causal chain, from the first cause to this action.
    public let chain: [String]

    /// Creates a report.
    ///
    /// - Parameters:
    ///   - reason: The limit that was passed.
    ///   - kind: The kind of the action that passed it.
    ///   - chain: The kinds from the first cause to this action.
    public init(reason: Reason, kind: String, chain: [String]) {
        self.reason = reason
        self.kind = kind
        self.chain = chain
    }

    /// A sentence naming the limit and the chain, such as
    /// `cycle: chain of 33 actions (limit 32): ping → pong → ping → …`.
    public var description: String {
        let links = chain.joined(separator: " → ")
        switch reason {
        case .depth(let depth, let limit):
            return "cycle: chain of \(depth) actions (limit \(limit)): \(links)"
        case .frequency(let count, let limit, let window):
            return "cycle: \(count) \(kind) actions within \(window) s (limit \(limit)); chain: \(links)"
        }
    }
}
