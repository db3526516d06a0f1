import Canopy

/// Subscribe: the cost of one subscription when many are made on one store.
///
/// Subscribing must be O(1) amortised: the 10,000th subscription costs what the first does.
public enum SubscribeCost {
    /// The workload's short name.
    public static let name = "subscribe"
    /// Subscriptions made on one store (DESIGN §4: 10,000).
    public static let defaultCount = 10_000

    /// Subscribes `count` raw observers to one store, waits until every one has received the current
    /// state, and checks that each did exactly once.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - count: Subscriptions to make.
    /// - Returns: The throughput, in subscriptions.
    /// - Throws: ``CheckFailure`` when an observer did not receive the current state exactly once.
    public static func run(_ system: System, count: Int = defaultCount) throws(CheckFailure) -> Throughput {
        let tally = Deliveries()
        let result: Throughput
        switch system {
        case .floorSync:
            var store = FloorStore<Int, Increment>(0) { state, _ in state += 1 }
            result = measureThroughput(actions: count) {
                for index in 0..<count {
                    store.subscribe { _ in tally.record(index) }
                }
            }
            withExtendedLifetime(store) {}
        case .floorQueue:
            // One `queue.async` per subscription that appends the closure and calls it with the state.
            let store = FloorQueueStore<Int, Increment>(0) { state, _ in state += 1 }
            _ = store.settledState()
            result = measureThroughput(actions: count) {
                for index in 0..<count {
                    store.subscribe { _ in tally.record(index) }
                }
                _ = store.settledState()
            }
        case .canopy:
            let store = StateStore<Int, Increment>(0) { state, _ in state += 1 }
            _ = store.settledState()
            result = measureThroughput(actions: count) {
                for index in 0..<count {
                    store.subscribe(
                        observer: Observer { _ in
                            tally.record(index)
                            return .active
                        }
                    )
                }
                _ = store.settledState()
            }
        }
        try tally.check(observers: count, statesEach: 1, name, system)
        return result
    }
}
