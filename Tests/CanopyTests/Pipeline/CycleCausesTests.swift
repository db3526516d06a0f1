import Dispatch
import Testing

@testable import Canopy

/// SPEC 9: an action dispatched while another is handled — by a middleware, an effect, an observer or
/// work started by id — is caused by it, so cycle detection follows chains whatever drives them.
@Suite(.timeLimit(.minutes(1))) struct CycleCausesTests {
    enum Ping: Sendable, Equatable {
        case ping(Int)
    }

    /// A root that counts pings, with diagnostics and a chain limit of 8.
    private static func store(
        middlewares: [Middleware<Int, Ping>] = [],
        events: CycleEvents
    ) -> StateStore<Int, Ping> {
        StateStore(
            0,
            middlewares: middlewares,
            diagnostics: events,
            cycleDetection: CycleDetection(maxDepth: 8, maxPerWindow: nil),
            reducer: { count, _ in count += 1 }
        )
    }

    @Test func aChainThatARawObserverDrivesIsReported() async {
        let events = CycleEvents()
        let store = Self.store(events: events)
        store.subscribe(
            observer: Observer { count in
                if count > 0, count < 20 { store.dispatch(.ping(count + 1)) }
                // Done at 20: the node lets go of the observer, and of the store it captured.
                return count < 20 ? .active : .dead
            }
        )
        await store.send(.ping(1))
        _ = await waitForState(store) { $0 == 20 }
        #expect(await store.state == 20)
        #expect(events.depthReports == 1, "one report, when the chain passes 8")
    }

    @Test func aChainThatAChildsObserverDrivesIsReported() async {
        let events = CycleEvents()
        let root = Self.store(events: events)
        let child = root.with(0) { local, _ in local += 1 }
        let subscription = child.subscribe { state in
            if state.1 > 0, state.1 < 20 { child.dispatch(.ping(state.1 + 1)) }
        }
        await child.send(.ping(1))
        _ = await waitForState(root) { $0 == 20 }
        #expect(events.depthReports == 1)
        withExtendedLifetime(subscription) {}
    }

    @Test func aChainThatAnEffectDrivesIsReported() async {
        let events = CycleEvents()
        let effects = DispatchQueue(label: "effects")
        let store = Self.store(events: events)
        _ = store.effect(onChange: \.self, on: effects) { count, dispatch in
            Effect {
                if count > 0, count < 20 { dispatch(.ping(count + 1)) }
            }
        }
        await store.send(.ping(1))
        _ = await waitForState(store) { $0 == 20 }
        #expect(events.depthReports == 1)
    }

    @Test func aChainThatWorkByIDDrivesIsReported() async {
        let events = CycleEvents()
        let store = Self.store(
            middlewares: [
                Middleware("again") { action, context in
                    if case .ping(let n) = action, n < 20 {
                        context.run(id: n) { task in task.send(.ping(n + 1)) }
                    }
                    context.next(action)
                }
            ],
            events: events
        )
        await store.send(.ping(1))
        _ = await waitForState(store) { $0 == 20 }
        #expect(events.depthReports == 1)
    }

    @Test func actionsFromOutsideStartNewChains() async {
        let events = CycleEvents()
        let store = Self.store(events: events)
        for n in 0..<20 { store.dispatch(.ping(n)) }
        #expect(await store.send(.ping(20)) == 21)
        #expect(events.depthReports == 0)
    }
}

/// Counts the chain-depth reports a store's diagnostics receive.
private final class CycleEvents: StoreDiagnostics {
    private let reports = LockedValue(0)

    var depthReports: Int { reports.withLock { $0 } }

    func record(_ event: StoreEvent) {
        guard case .cycle(_, let report) = event, case .depth = report.reason else { return }
        reports.withLock { $0 += 1 }
    }
}
