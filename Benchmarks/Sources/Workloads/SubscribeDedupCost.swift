import Canopy

/// Subscribe with dedup: the cost of one deduplicating subscription (`subscribe(removeStateDuplicates:)`)
/// made, delivered its first state and cancelled, when many are made on one store.
///
/// Teardown is part of what it measures: every token is cancelled, and one more action checks that no
/// handler is called afterwards.
public enum SubscribeDedupCost {
    /// The workload's short name.
    public static let name = "subscribe-dedup"
    /// Subscriptions made on one store (DESIGN §4: 10,000).
    public static let defaultCount = 10_000

    /// Makes `count` deduplicating subscriptions on one store, waits until each has received the current
    /// state, cancels them all, and checks that each was called exactly once.
    ///
    /// - Parameter count: Subscriptions to make.
    /// - Returns: The throughput, in subscriptions.
    /// - Throws: ``CheckFailure`` when a handler was not called exactly once, or was called after its
    ///   cancellation.
    public static func run(count: Int = defaultCount) throws(CheckFailure) -> Throughput {
        let tally = Deliveries()
        return try measureSubscriptions(count: count, name: name, tally: tally) { store, index in
            store.subscribe(removeStateDuplicates: .keyPath(\.count)) { _ in tally.record(index) }
        }
    }
}

/// Makes `count` subscriptions with `subscribe` on one store, waits until the store's queue and then
/// `delivered` have run everything (each subscription's first state), cancels them all, and checks
/// that each subscription's handler was called exactly once, then no more after one more action.
///
/// - Parameters:
///   - count: Subscriptions to make.
///   - name: The workload's name, for a failed check.
///   - tally: What the handlers record to.
///   - delivered: Waits for the deliveries that run elsewhere than on the store's queue, if any.
///   - subscribe: Makes the subscription with the given index, whose handler records to `tally`.
/// - Returns: The throughput, in subscriptions; the subscribing, waiting and cancelling are measured.
/// - Throws: ``CheckFailure`` when a handler was not called exactly once.
@inline(__always)
func measureSubscriptions(
    count: Int,
    name: String,
    tally: Deliveries,
    delivered: () -> Void = {},
    subscribe: (StateStore<FanOutState, Increment>, Int) -> Subscription
) throws(CheckFailure) -> Throughput {
    let store = StateStore<FanOutState, Increment>(FanOutState()) { state, _ in state.count += 100 }
    _ = store.settledState()
    let result = measureThroughput(actions: count) {
        var subscriptions: [Subscription] = []
        subscriptions.reserveCapacity(count)
        for index in 0..<count {
            subscriptions.append(subscribe(store, index))
        }
        _ = store.settledState()
        delivered()
        for subscription in subscriptions {
            subscription.cancel()
        }
        _ = store.settledState()
    }
    // The count changes: a handler still subscribed would be called.
    store.dispatch(Increment())
    let final = store.settledState()
    delivered()
    try check(final.count == 100, name, .canopy, "state \(final.count), expected 100")
    try tally.check(observers: count, statesEach: 1, name, .canopy)
    return result
}
