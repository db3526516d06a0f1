import Canopy

/// W1 with one pass-through middleware: what the middleware stage adds to an action (issue 12).
///
/// The same actions as ``W1DispatchThroughput``, sent to a root whose one middleware forwards each
/// action unchanged. The floors call a pass-through closure before their reducer, so all three do the
/// same work.
public enum W1Middleware {
    /// The workload's short name.
    public static let name = "W1 middleware"

    /// Runs the workload once and checks that every action went through the middleware and was reduced.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - actions: Actions dispatched from one thread.
    /// - Returns: The throughput.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(
        _ system: System,
        actions: Int = W1DispatchThroughput.defaultActions
    ) throws(CheckFailure) -> Throughput {
        // The floors' middleware: hands the action on to `next`.
        let pass: (Increment, (Increment) -> Void) -> Void = { action, next in next(action) }
        switch system {
        case .floorSync:
            var store = FloorStore<Int, Increment>(0) { state, _ in state += 1 }
            var final = 0
            let result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    pass(Increment()) { store.dispatch($0) }
                }
                final = store.state
            }
            try check(final == actions, name, system, "state \(final), expected \(actions)")
            return result
        case .floorQueue:
            let store = FloorQueueStore<Int, Increment>(0) { state, _ in state += 1 }
            var final = 0
            let result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    pass(Increment()) { store.dispatch($0) }
                }
                final = store.settledState()
            }
            try check(final == actions, name, system, "state \(final), expected \(actions)")
            return result
        case .canopy:
            let store = StateStore<Int, Increment>(0, middlewares: [Middleware("pass") { a, c in c.next(a) }]) {
                state,
                _ in state += 1
            }
            var final = 0
            let result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    store.dispatch(Increment())
                }
                final = store.settledState()
            }
            try check(final == actions, name, system, "state \(final), expected \(actions)")
            return result
        }
    }
}
