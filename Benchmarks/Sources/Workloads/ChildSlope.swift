import Canopy

/// Per child with the root changing: a root whose every action changes its state, with `children` child
/// stores of one subscriber each. The instructions one more child adds to an action (the slope between
/// two widths) compare a deduplicating subscription with a raw observer doing the same job: the raw
/// observer that makes the same check by hand in its closure is issue 32's floor ("as cheap as a
/// hand-written check"); the one that checks nothing shows what the check itself costs.
///
/// Every action changes the root's count, so every child's state changes and every subscriber is called:
/// the deduplicating subscription deduplicates on the root's count, and lets every state through.
public enum ChildSlope {
    /// The workload's short name.
    public static let name = "child-slope"
    /// Actions dispatched to the root.
    public static let defaultActions = 10_000

    /// How each child is observed.
    public enum Subscriber: String, Sendable, CaseIterable {
        /// `subscribe(observer:)`, counting in its closure.
        case raw
        /// `subscribe(observer:)` with the subscription's check written in its closure: one key-path read
        /// per state, compared with the last value let through, the first state always let through.
        case checked
        /// `subscribe(removeStateDuplicates: .keyPath(\.0))`, counting in its handler.
        case deduplicating
    }

    /// Runs the workload once and checks that every subscriber received every state.
    ///
    /// - Parameters:
    ///   - subscriber: How each child is observed.
    ///   - children: Children of the root, each with one subscriber.
    ///   - actions: Actions dispatched to the root.
    /// - Returns: The throughput.
    /// - Throws: ``CheckFailure`` when a subscriber missed a state or got one too many.
    public static func run(
        _ subscriber: Subscriber,
        children: Int,
        actions: Int = defaultActions
    ) throws(CheckFailure) -> Throughput {
        let tally = Tally()
        let root = StateStore<Int, Increment>(0) { state, _ in state += 1 }
        let stores = (0..<children).map { _ in root.with(0) { local, _ in local += 1 } }
        var subscriptions: [Subscription] = []
        for store in stores {
            switch subscriber {
            case .raw:
                store.subscribe(
                    observer: Observer { _ in
                        tally.value += 1
                        return .active
                    }
                )
            case .checked:
                let last = LastValue<Int>()
                store.subscribe(
                    observer: Observer { state in
                        let key = state[keyPath: \.0]
                        if key != last.value {
                            last.value = key
                            tally.value += 1
                        }
                        return .active
                    }
                )
            case .deduplicating:
                subscriptions.append(store.subscribe(removeStateDuplicates: .keyPath(\.0)) { _ in tally.value += 1 })
            }
        }
        _ = root.settledState()
        let result = measureThroughput(actions: actions) {
            for _ in 0..<actions {
                root.dispatch(Increment())
            }
            _ = root.settledState()
        }
        let final = root.settledState()
        try check(final == actions, name, .canopy, "root state \(final), expected \(actions)")
        try check(
            tally.value == children * (1 + actions),
            name,
            .canopy,
            "subscribers got \(tally.value) states, expected \(children * (1 + actions))"
        )
        withExtendedLifetime((stores, subscriptions)) {}
        return result
    }
}
