import Canopy

/// Tree width: a root with many children, one deduplicating subscription per child on the child's local
/// value, actions sent to one child only and the root's state unchanged.
///
/// With `rootMiddleware` (Canopy only), the root has one middleware that passes every action on: what
/// a child's action costs in a tree whose root logs or records, the usual place for middleware.
///
/// What one action costs should follow what it changed (SPEC §8), not the number of children: the
/// floors call only the touched child's observer.
public enum TreeWidth {
    /// The workload's short name.
    public static let name = "tree-width"
    /// Actions sent to the one child.
    public static let defaultActions = 10_000
    /// The widths the table reports (DESIGN §4).
    public static let widths = [10, 100, 1_000]

    /// Runs the workload once and checks every child's state and every subscription's deliveries.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - children: Children of the root, each with one deduplicating subscription.
    ///   - actions: Actions sent to the last child.
    ///   - rootMiddleware: Whether the root has one pass-through middleware (Canopy only: the floors
    ///     have no middleware).
    /// - Returns: The throughput.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(
        _ system: System,
        children: Int,
        actions: Int = defaultActions,
        rootMiddleware: Bool = false
    ) throws(CheckFailure) -> Throughput {
        precondition(children > 0, "tree-width needs at least one child")
        precondition(!rootMiddleware || system == .canopy, "tree-width's root middleware is Canopy's only")
        let target = children - 1
        let tallies = (0..<children).map { _ in Tally() }
        let lastSeen = (0..<children).map { _ in LastValue<(Int, Int)>() }
        let result: Throughput
        let settled: (root: Int, locals: [Int])
        switch system {
        case .floorSync:
            var tree = FloorTree()
            for child in 0..<children {
                let node = tree.addChild()
                tree.subscribe(node, deduplicating(tallies[child], lastSeen[child]))
            }
            result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    tree.dispatchLocal(toChild: target)
                }
            }
            settled = (tree.root, tree.children.map(\.local))
        case .floorQueue:
            let tree = FloorQueueTree()
            for child in 0..<children {
                tree.addChild(observers: [FloorObserver(deduplicating(tallies[child], lastSeen[child]))])
            }
            _ = tree.settledState()
            result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    tree.dispatchLocal(toChild: target)
                }
                _ = tree.settledState()
            }
            settled = tree.settledState()
        case .canopy:
            // The root's reducer leaves its state unchanged: only the touched child's local value changes.
            // The same middleware as W1's: the children's states below check that every action went on.
            let middlewares: [Middleware<Int, Increment>] =
                rootMiddleware ? [Middleware("pass") { action, context in context.next(action) }] : []
            let root = StateStore<Int, Increment>(0, middlewares: middlewares) { _, _ in }
            let stores = (0..<children).map { _ in root.with(0) { local, _ in local += 1 } }
            let subscriptions = stores.indices.map { child in
                let tally = tallies[child]
                let last = lastSeen[child]
                return stores[child].subscribe(removeStateDuplicates: .keyPath(\.1)) { state in
                    tally.value += 1
                    last.value = state
                }
            }
            _ = root.settledState()
            let store = stores[target]
            result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    store.dispatch(Increment())
                }
                _ = store.settledState()
            }
            settled = (root.settledState(), stores.map { $0.settledState().1 })
            withExtendedLifetime(subscriptions) {}
        }
        try check(settled.root == 0, name, system, "root state \(settled.root), expected 0")
        for child in 0..<children {
            let touched = child == target
            let expectedLocal = touched ? actions : 0
            try check(
                settled.locals[child] == expectedLocal,
                name,
                system,
                "child \(child) state \(settled.locals[child]), expected \(expectedLocal)"
            )
            // The current state on subscribing, then one state per action for the touched child only.
            let expectedDeliveries = touched ? 1 + actions : 1
            try check(
                tallies[child].value == expectedDeliveries,
                name,
                system,
                "child \(child)'s subscription got \(tallies[child].value) states, expected \(expectedDeliveries)"
            )
            let seen = lastSeen[child].value
            try check(
                seen?.0 == 0 && seen?.1 == expectedLocal,
                name,
                system,
                "child \(child)'s subscription last saw \(String(describing: seen)), expected (0, \(expectedLocal))"
            )
        }
        return result
    }

    /// A floor's observer with the hand-written check on the child's local value: one read, one compare.
    private static func deduplicating(
        _ tally: Tally,
        _ lastSeen: LastValue<(Int, Int)>
    ) -> @Sendable ((Int, Int)) -> Void {
        { state in
            if let previous = lastSeen.value, previous.1 == state.1 { return }
            lastSeen.value = state
            tally.value += 1
        }
    }
}
