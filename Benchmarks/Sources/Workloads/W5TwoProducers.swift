import Canopy
import Dispatch
import Synchronization

/// The action of W5: one action of one producer, numbered in the order it sends them.
public struct Produced: Sendable {
    /// 0 or 1.
    public var producer: Int
    /// How many actions this producer sent before this one.
    public var sequence: Int
}

/// The state of W5: how many actions of each producer were reduced, and how many arrived out of order.
public struct ProducersState: Sendable, Equatable {
    /// Actions of producer 0 reduced.
    public var first = 0
    /// Actions of producer 1 reduced.
    public var second = 0
    /// Actions reduced out of their producer's order.
    public var outOfOrder = 0

    mutating func reduce(_ action: Produced) {
        if action.producer == 0 {
            if action.sequence != first { outOfOrder += 1 }
            first += 1
        } else {
            if action.sequence != second { outOfOrder += 1 }
            second += 1
        }
    }
}

/// W5, two producers: two threads dispatch at once; no action may be lost or reordered within its
/// producer.
public enum W5TwoProducers {
    /// The workload's short name.
    public static let name = "W5"
    /// Actions each of the two producers sends (DESIGN: 500,000).
    public static let defaultActionsPerProducer = 500_000

    /// Runs the workload once and checks that every action was reduced, in order per producer.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - actionsPerProducer: Actions each producer sends.
    /// - Returns: The throughput of both producers together.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(
        _ system: System,
        actionsPerProducer: Int = defaultActionsPerProducer
    ) throws(CheckFailure) -> Throughput {
        var final = ProducersState()
        let result: Throughput
        switch system {
        case .floorSync:
            // The same work with no queue: the state is shared by the producers, so it takes a lock.
            let store = Mutex(ProducersState())
            result = measureThroughput(actions: 2 * actionsPerProducer) {
                produce(actionsPerProducer) { action in store.withLock { $0.reduce(action) } }
                final = store.withLock { $0 }
            }
        case .floorQueue:
            let store = FloorQueueStore<ProducersState, Produced>(ProducersState()) { $0.reduce($1) }
            result = measureThroughput(actions: 2 * actionsPerProducer) {
                produce(actionsPerProducer) { store.dispatch($0) }
                final = store.settledState()
            }
        case .canopy:
            let store = StateStore<ProducersState, Produced>(ProducersState()) { $0.reduce($1) }
            result = measureThroughput(actions: 2 * actionsPerProducer) {
                produce(actionsPerProducer) { store.dispatch($0) }
                final = store.settledState()
            }
        }
        let expected = ProducersState(first: actionsPerProducer, second: actionsPerProducer, outOfOrder: 0)
        try check(final == expected, name, system, "state \(final), expected \(expected)")
        return result
    }

    /// Runs two producers at once, each sending `count` numbered actions; returns when both are done.
    private static func produce(_ count: Int, _ dispatch: @Sendable (Produced) -> Void) {
        DispatchQueue.concurrentPerform(iterations: 2) { producer in
            for sequence in 0..<count {
                dispatch(Produced(producer: producer, sequence: sequence))
            }
        }
    }
}
