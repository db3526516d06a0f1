#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The limits past which a store tree reports a cycle of actions.
///
/// Two signs of a cycle are watched: a causal chain deeper than ``maxDepth`` (an action dispatched while
/// handling an action that was itself dispatched while handling another, and so on), and one kind of
/// action arriving more than ``maxPerWindow`` times within ``window`` seconds on the tree's clock. Either
/// is reported through ``StoreDiagnostics`` (and, in debug builds, an assertion message that names the
/// chain). Detection never drops or delays an action.
///
/// ```swift
/// let strict = CycleDetection(maxDepth: 8, maxPerWindow: 50, window: 1)
/// let store = StateStore(AppState(), options: .init(cycleDetection: strict), reducer: AppState.reduce)
/// ```
public struct CycleDetection: Sendable, Hashable {
    /// The deepest causal chain allowed; `nil` turns the depth check off.
    public var maxDepth: Int?

    /// How many actions of one kind may arrive within ``window``; `nil` turns the frequency check off.
    public var maxPerWindow: Int?

    /// The length, in seconds, of the window ``maxPerWindow`` counts in.
    public var window: TimeInterval

    /// Creates limits.
    ///
    /// - Parameters:
    ///   - maxDepth: The deepest causal chain allowed (one or more), or `nil` for no depth check.
    ///   - maxPerWindow: How many actions of one kind may arrive within `window` (one or more), or `nil`
    ///     for no frequency check.
    ///   - window: The window's length in seconds; must be positive when `maxPerWindow` is set.
    public init(maxDepth: Int?, maxPerWindow: Int?, window: TimeInterval = 1) {
        precondition(maxDepth.map { $0 >= 1 } ?? true, "CycleDetection.maxDepth must be 1 or more, got \(maxDepth!)")
        precondition(
            maxPerWindow.map { $0 >= 1 } ?? true,
            "CycleDetection.maxPerWindow must be 1 or more, got \(maxPerWindow!)"
        )
        precondition(maxPerWindow == nil || window > 0, "CycleDetection.window must be positive, got \(window)")
        self.maxDepth = maxDepth
        self.maxPerWindow = maxPerWindow
        self.window = window
    }

    /// ``debugDefault`` in debug builds, ``off`` in release builds: what every root store uses unless
    /// its ``StateStore/Options`` say otherwise.
    public static var automatic: CycleDetection {
        #if DEBUG
        .debugDefault
        #else
        .off
        #endif
    }

    /// The limits used in debug builds: chains deeper than 32, or more than 1,000 actions of one kind
    /// in one second.
    public static let debugDefault = CycleDetection(maxDepth: 32, maxPerWindow: 1_000, window: 1)

    /// No detection at all.
    public static let off = CycleDetection(maxDepth: nil, maxPerWindow: nil)

    /// Whether any check is on.
    public var isEnabled: Bool {
        maxDepth != nil || maxPerWindow != nil
    }
}
