import Canopy
import Dispatch
import Synchronization

/// The Stats feature's presenter: a debounced subscription to the `stats` store whose props are
/// computed on the presentation queue, away from the store's queue.
///
/// - Dedup: a state whose ``StatsProps/Input`` (tasks revision, today, histogram size) equals the last
///   accepted one is dropped on the store's queue; saving, search or sync changes never reach the props.
/// - Debounce: a burst of changes (a script adding ten tasks) computes the props once, after
///   `debounce` seconds of quiet, or at the latest after `4 × debounce`.
/// - Props: ``StatsProps`` runs on the shared presentation queue.
/// - Delivery: on a queue of its own, into ``latest``; `stats` waits for props of the current state.
final class StatsPresenter: Sendable {
    private let inbox: StatsInbox
    private let subscription: Subscription

    init(store: StatsStore, debounce: Double) {
        let inbox = StatsInbox()
        self.inbox = inbox
        subscription = store.subscribe(
            props: { state, _ in
                dispatchPrecondition(condition: .onQueue(.sharedPresentationQueue))
                inbox.countComputation()
                return StatsProps(state)
            },
            presentationQueue: .sharedPresentationQueue,
            removeStateDuplicates: Equating { StatsProps.Input($0) == StatsProps.Input($1) },
            debounce: .debounce(for: debounce, maxWait: debounce * 4),
            deliveryQueue: DispatchQueue(label: "taskboard.stats"),
            observe: { props in inbox.deliver(props) }
        )
    }

    /// The last props delivered.
    var latest: StatsProps? {
        inbox.latest
    }

    /// How many times the props were computed.
    var computations: Int {
        inbox.computations
    }

    /// The props for `input`, once the subscription has delivered them.
    func props(for input: StatsProps.Input) async -> StatsProps {
        await inbox.props(for: input)
    }
}

/// Where the subscription delivers; kept apart from ``StatsPresenter`` so that the subscription's
/// closure does not keep the presenter (and so the subscription itself) alive.
private final class StatsInbox: Sendable {
    private struct Storage {
        var latest: StatsProps?
        var computations = 0
        var waiters: [(input: StatsProps.Input, continuation: CheckedContinuation<StatsProps, Never>)] = []
    }

    private let storage = Mutex(Storage())

    var latest: StatsProps? {
        storage.withLock { $0.latest }
    }

    var computations: Int {
        storage.withLock { $0.computations }
    }

    func countComputation() {
        storage.withLock { $0.computations += 1 }
    }

    func deliver(_ props: StatsProps) {
        let ready = storage.withLock { storage in
            storage.latest = props
            var ready: [CheckedContinuation<StatsProps, Never>] = []
            // Props of a newer board answer too: a background pull may have landed meanwhile.
            storage.waiters.removeAll { waiter in
                guard waiter.input == props.input || waiter.input.revision < props.input.revision else {
                    return false
                }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: props) }
    }

    func props(for input: StatsProps.Input) async -> StatsProps {
        await withCheckedContinuation { continuation in
            let ready = storage.withLock { storage -> StatsProps? in
                if let latest = storage.latest, latest.input == input || input.revision < latest.input.revision {
                    return latest
                }
                storage.waiters.append((input, continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
