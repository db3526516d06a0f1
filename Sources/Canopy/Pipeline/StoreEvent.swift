/// One thing a store tree's runtime did, as reported to ``StoreDiagnostics``.
///
/// Every event names the node it concerns with its ``StoreID``. Actions appear as text (their
/// `String(describing:)`), made only when diagnostics are attached.
///
/// ```swift
/// func record(_ event: StoreEvent) {
///     if case .reduced(let store, let action, let duration) = event, duration > .milliseconds(5) {
///         print("slow reducer in \(store) for \(action): \(duration)")
///     }
/// }
/// ```
public enum StoreEvent: Sendable, CustomStringConvertible {
    /// An action arrived at `store` and is about to go through the middleware.
    case received(store: StoreID, action: String)

    /// The middleware named `middleware` did not forward the action, so no reducer ran.
    case blocked(store: StoreID, action: String, middleware: String)

    /// The reducers from `store` up to the root ran for the action and took `duration` in all.
    case reduced(store: StoreID, action: String, duration: Duration)

    /// `count` observers of `store` were called with its new state.
    case observersNotified(store: StoreID, count: Int)

    /// Work started under `id` (an effect or a run by id) on behalf of `store`.
    case effectStarted(store: StoreID, id: String)

    /// Work under `id` ended by itself.
    case effectFinished(store: StoreID, id: String)

    /// Work under `id` was cancelled before it ended.
    case effectCancelled(store: StoreID, id: String)

    /// `error` was thrown by `source` (a middleware, or work under an id) while handling `action`, and no
    /// error resolver handled it.
    case error(store: StoreID, action: String, source: String, error: any Error)

    /// A chain of actions went deeper, or one kind of action came more often, than the tree's
    /// ``CycleDetection`` allows. The action was still reduced.
    case cycle(store: StoreID, report: CycleReport)

    /// The node the event concerns.
    public var store: StoreID {
        switch self {
        case .received(let store, _), .blocked(let store, _, _), .reduced(let store, _, _),
            .observersNotified(let store, _), .effectStarted(let store, _), .effectFinished(let store, _),
            .effectCancelled(let store, _), .error(let store, _, _, _), .cycle(let store, _):
            store
        }
    }

    /// A one-line account of the event, starting with the node, such as `root/1 reduced add(1) in 2 µs`.
    public var description: String {
        switch self {
        case .received(let store, let action):
            "\(store) received \(action)"
        case .blocked(let store, let action, let middleware):
            "\(store) blocked \(action) in middleware \"\(middleware)\""
        case .reduced(let store, let action, let duration):
            "\(store) reduced \(action) in \(Self.text(for: duration))"
        case .observersNotified(let store, let count):
            "\(store) notified \(count) observer\(count == 1 ? "" : "s")"
        case .effectStarted(let store, let id):
            "\(store) started work \(id)"
        case .effectFinished(let store, let id):
            "\(store) finished work \(id)"
        case .effectCancelled(let store, let id):
            "\(store) cancelled work \(id)"
        case .error(let store, let action, let source, let error):
            "\(store) unhandled error from \(source) while handling \(action): \(error)"
        case .cycle(let store, let report):
            "\(store) \(report)"
        }
    }

    /// A duration in the largest unit that keeps it at one or more, with one decimal: `850 ns`, `3.0 µs`.
    private static func text(for duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        guard nanoseconds >= 1_000 else { return "\(nanoseconds) ns" }
        for (unit, scale) in [("µs", Int64(1_000)), ("ms", 1_000_000)] where nanoseconds < scale * 1_000 {
            let tenths = (nanoseconds * 10 + scale / 2) / scale
            return "\(tenths / 10).\(tenths % 10) \(unit)"
        }
        let tenths = (nanoseconds * 10 + 500_000_000) / 1_000_000_000
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
