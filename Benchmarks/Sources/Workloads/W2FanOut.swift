import Canopy

/// The state of W2: a count, and a key that changes every 100 actions.
public struct FanOutState: Sendable {
    /// Actions reduced.
    public var count = 0
    /// `count / 100`: the key the observers deduplicate on.
    public var hundreds = 0

    mutating func increment() {
        count += 1
        hundreds = count / 100
    }
}

/// W2, fan-out: observers that deduplicate on a key path that changes every 100 actions.
public enum W2FanOut {
    /// The workload's short name.
    public static let name = "W2"
    /// Actions dispatched (DESIGN: 100,000).
    public static let defaultActions = 100_000
    /// Deduplicating observers (DESIGN: 100).
    public static let defaultObservers = 100

    /// Runs the workload once and checks the final state and every observer's deliveries.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - actions: Actions dispatched from one thread.
    ///   - observers: Observers deduplicating on `\.hundreds`.
    /// - Returns: The throughput.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(
        _ system: System,
        actions: Int = defaultActions,
        observers: Int = defaultObservers
    ) throws(CheckFailure) -> Throughput {
        // Each observer gets the initial state, then one state per change of `hundreds`.
        let expectedDeliveries = 1 + actions / 100
        let tallies = (0..<observers).map { _ in Tally() }
        let result: Throughput
        let final: FanOutState
        switch system {
        case .floorSync:
            var store = FloorStore<FanOutState, Increment>(FanOutState()) { state, _ in state.increment() }
            for tally in tallies {
                // The hand-written check: one key-path read per state, compared with the last key let through.
                let last = LastValue<Int>()
                store.subscribe { state in
                    let key = state[keyPath: \FanOutState.hundreds]
                    if key == last.value { return }
                    last.value = key
                    tally.value += 1
                }
            }
            result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    store.dispatch(Increment())
                }
            }
            final = store.state
        case .floorQueue:
            let store = FloorQueueStore<FanOutState, Increment>(FanOutState()) { state, _ in state.increment() }
            for tally in tallies {
                // The same check as floor-sync's.
                let last = LastValue<Int>()
                store.subscribe { state in
                    let key = state[keyPath: \FanOutState.hundreds]
                    if key == last.value { return }
                    last.value = key
                    tally.value += 1
                }
            }
            _ = store.settledState()
            result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    store.dispatch(Increment())
                }
                _ = store.settledState()
            }
            final = store.settledState()
        case .canopy:
            let store = StateStore<FanOutState, Increment>(FanOutState()) { state, _ in state.increment() }
            let subscriptions = tallies.map { tally in
                store.subscribe(removeStateDuplicates: .keyPath(\.hundreds)) { _ in tally.value += 1 }
            }
            _ = store.settledState()
            result = measureThroughput(actions: actions) {
                for _ in 0..<actions {
                    store.dispatch(Increment())
                }
                _ = store.settledState()
            }
            final = store.settledState()
            withExtendedLifetime(subscriptions) {}
        }
        try check(final.count == actions, name, system, "state \(final.count), expected \(actions)")
        for (index, tally) in tallies.enumerated() {
            try check(
                tally.value == expectedDeliveries,
                name,
                system,
                "observer \(index) got \(tally.value) states, expected \(expectedDeliveries)"
            )
        }
        return result
    }
}

/// The last value an observer let through or saw.
final class LastValue<Value>: @unchecked Sendable {
    // Safety: written only inside one observer, which its store calls on its serial queue (or on the one
    // thread of a floor-sync run), and read by the harness only after synchronising with that queue
    // (`DispatchQueue.sync` or `await store.state`), which orders every write before the read.
    var value: Value?
}
