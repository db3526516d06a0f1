import Testing

@testable import Canopy

/// SPEC 2.2: observers are called in subscription order. A node's list of observers is compacted once
/// half of it is empty; the order must survive that, at the root and at a child.
@Suite(.timeLimit(.minutes(1))) struct ObserverOrderTests {
    /// Subscribes 20 handlers named 0..<20 with `subscribe`, cancels all but every third (enough for
    /// the list to compact), then subscribes 20..<23, and returns the order the survivors are called in
    /// for one state.
    private func orderAfterCompaction(
        subscribe: (@escaping @Sendable (Int) -> Void) -> Subscription,
        send: () async -> Void
    ) async -> [Int] {
        let calls = StateRecorder<Int>()
        let armed = LockedValue(false)
        func observer(_ name: Int) -> @Sendable (Int) -> Void {
            { _ in if armed.withLock({ $0 }) { calls.record(name) } }
        }
        var subscriptions: [Int: Subscription] = [:]
        for name in 0..<20 { subscriptions[name] = subscribe(observer(name)) }
        for name in 0..<20 where !name.isMultiple(of: 3) {
            subscriptions[name]?.cancel()
            subscriptions[name] = nil
        }
        for name in 20..<23 { subscriptions[name] = subscribe(observer(name)) }
        await send()
        armed.withLock { $0 = true }
        await send()
        let expected = [0, 3, 6, 9, 12, 15, 18, 20, 21, 22]
        let order = await calls.waitFor(count: expected.count)
        withExtendedLifetime(subscriptions) {}
        return order
    }

    @Test func rootObserversKeepSubscriptionOrderAfterTheListCompacts() async {
        let store = StateStore<Int, Int>(0) { state, action in state += action }
        let order = await orderAfterCompaction(
            subscribe: { store.subscribe($0) },
            send: { await store.send(1) }
        )
        #expect(order == [0, 3, 6, 9, 12, 15, 18, 20, 21, 22])
    }

    @Test func childObserversKeepSubscriptionOrderAfterTheListCompacts() async {
        let root = StateStore<Int, Int>(0) { state, action in state += action }
        let child = root.with(0) { local, action in local += action }.map(state: { $0.0 + $0.1 })
        let order = await orderAfterCompaction(
            subscribe: { child.subscribe($0) },
            send: { await child.send(1) }
        )
        #expect(order == [0, 3, 6, 9, 12, 15, 18, 20, 21, 22])
    }
}
