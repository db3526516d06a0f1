import Canopy

/// The result of one dropped-children run.
public struct DroppedChildrenResult: Sendable {
    /// Children created and dropped.
    public var iterations: Int
    /// From the first child created until `root.state` with every action reduced.
    public var nanoseconds: UInt64

    /// Nanoseconds per create-subscribe-dispatch-drop iteration, the final wait included.
    public var nanosecondsPerIteration: Double { Double(nanoseconds) / Double(max(iterations, 1)) }
}

/// Dropped children (issue 11): create a child, subscribe to it, dispatch to it and drop the handle, many
/// times, then wait for the root's state.
///
/// A dropped child must stop costing anything once its pending actions are reduced, so the time per
/// iteration stays the same whatever the number of iterations (linear in total). Canopy only: the floors
/// have no child handles to drop.
public enum DroppedChildren {
    /// The workload's short name.
    public static let name = "dropped-children"
    /// The loop sizes the benchmark suite times (issue 11).
    public static let sizes = [8_000, 16_000, 32_000]

    /// Runs the loop once, then one more action, and checks the root's state and that no dropped child
    /// is still alive.
    ///
    /// - Parameter iterations: Children created, subscribed to, dispatched to and dropped.
    /// - Returns: The time the loop and the wait for the root's state took.
    /// - Throws: ``CheckFailure`` when an action is missing or a dropped child is still alive.
    public static func run(iterations: Int) throws(CheckFailure) -> DroppedChildrenResult {
        let root = StateStore<Int, Increment>(0) { state, _ in state += 1 }
        _ = root.settledState()
        // Each child's reducer holds a marker, so a live marker means a live child.
        var markers: [WeakMarker] = []
        markers.reserveCapacity(iterations)
        let start = now()
        for _ in 0..<iterations {
            let marker = Marker()
            let child = root.with(0) { local, _ in
                marker.keep()
                local += 1
            }
            child.subscribe(observer: Observer { _ in .active })
            child.dispatch(Increment())
            markers.append(WeakMarker(marker))
        }
        let settled = root.settledState()
        let elapsed = now() - start
        root.dispatch(Increment())
        let final = root.settledState()
        let alive = markers.count { $0.marker != nil }

        try check(settled == iterations, name, .canopy, "root state \(settled) after the loop, expected \(iterations)")
        try check(final == iterations + 1, name, .canopy, "root state \(final), expected \(iterations + 1)")
        try check(
            alive == 0,
            name,
            .canopy,
            "\(alive) of \(iterations) dropped children still alive after the loop and one more action"
        )
        return DroppedChildrenResult(iterations: iterations, nanoseconds: elapsed)
    }
}

/// Lives as long as the child whose reducer captured it.
final class Marker: Sendable {
    /// Does nothing; a closure that calls it keeps the marker alive.
    func keep() {}
}

/// A weak reference to a ``Marker``.
struct WeakMarker {
    weak var marker: Marker?

    init(_ marker: Marker) {
        self.marker = marker
    }
}
