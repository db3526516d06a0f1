import Canopy

/// W1, dispatch throughput: actions sent from one thread to a root with no observers.
public enum W1DispatchThroughput {
    /// The workload's short name.
    public static let name = "W1"
    /// Actions dispatched (DESIGN: 1,000,000).
    public static let defaultActions = 1_000_000

    /// Runs the workload once and checks that every action was reduced.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - actions: Actions dispatched from one thread.
    /// - Returns: The throughput.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(_ system: System, actions: Int = defaultActions) throws(CheckFailure) -> Throughput {
        switch system {
        case .floorSync:
            var store = FloorStore<Int, Increment>(0) { state, _ in state += 1 }
            var final = 0
            let result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    store.dispatch(Increment())
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
                    store.dispatch(Increment())
                }
                final = store.settledState()
            }
            try check(final == actions, name, system, "state \(final), expected \(actions)")
            return result
        case .canopy:
            let store = StateStore<Int, Increment>(0) { state, _ in state += 1 }
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
