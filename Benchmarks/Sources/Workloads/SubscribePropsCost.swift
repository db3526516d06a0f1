import Canopy
import Dispatch

/// Subscribe with props: the cost of one props subscription (`subscribe(_:props:observe:)` with a
/// `.queue` configuration and a deduplicating equating) made, delivered its first props and cancelled,
/// when many are made on one store.
///
/// The subscriber pipeline's own path: props computed on the shared presentation queue and delivered on
/// another. With no debounce: a debounced subscription (the UI default) holds its first state back on a
/// timer, which adds the timer's cost and makes the wait for the deliveries one on the clock. Teardown is
/// part of what it measures, as in ``SubscribeDedupCost``: every token is cancelled, and one more action
/// checks that no observer is called afterwards.
public enum SubscribePropsCost {
    /// The workload's short name.
    public static let name = "subscribe-props"
    /// Subscriptions made on one store, as for ``SubscribeDedupCost``.
    public static let defaultCount = 10_000

    /// Makes `count` props subscriptions on one store, waits until each has received the current props,
    /// cancels them all, and checks that each was called exactly once.
    ///
    /// - Parameter count: Subscriptions to make.
    /// - Returns: The throughput, in subscriptions.
    /// - Throws: ``CheckFailure`` when an observer was not called exactly once, or was called after its
    ///   cancellation.
    public static func run(count: Int = defaultCount) throws(CheckFailure) -> Throughput {
        let tally = Deliveries()
        // Serial: the tally is written only here, and read after a `sync` on it.
        let output = DispatchQueue(label: "canopy.benchmark.subscribe-props")
        return try measureSubscriptions(
            count: count,
            name: name,
            tally: tally,
            delivered: {
                DispatchQueue.sharedPresentationQueue.sync {}
                output.sync {}
            },
            subscribe: { store, index in
                store.subscribe(
                    .queue(output, removeStateDuplicates: .keyPath(\.count), debounce: .immediate),
                    props: { state, _ in state.count },
                    observe: { _ in tally.record(index) }
                )
            }
        )
    }
}
