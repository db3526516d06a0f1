import Dispatch
import Testing

@testable import Canopy

/// A root's options come from one place: every initializer builds `StateStore.Options` and leaves what
/// it does not take at the same defaults.
@Suite(.timeLimit(.minutes(1))) struct StoreOptionsTests {
    typealias Store = StateStore<Int, Int>

    /// What a root runs with, read from its tree before any action.
    struct Effective: Equatable {
        var qos: DispatchQoS
        var wallClock: Bool
        var hasDiagnostics: Bool
        var cycleDetection: CycleDetection

        init(_ store: Store) {
            let tree = store.handle.tree
            qos = tree.queue.qos
            wallClock = tree.scheduler is DispatchDelayScheduler
            hasDiagnostics = tree.diagnostics != nil
            cycleDetection = tree.cycleDetection
        }
    }

    static func reduce(_ state: inout Int, _ action: Int) { state += action }

    /// What a queue made with `qos` reports (Linux's Dispatch maps some classes to others).
    static func queueQoS(_ qos: DispatchQoS) -> DispatchQoS {
        DispatchQueue(label: "qos probe", qos: qos).qos
    }

    @Test func everyRootInitializerHasTheDefaultsOfOptions() {
        let defaults = Effective(Store(0, options: Store.Options(), reducer: Self.reduce))
        #expect(defaults.qos == Self.queueQoS(.userInteractive))
        #expect(defaults.wallClock)
        #expect(!defaults.hasDiagnostics)
        #expect(defaults.cycleDetection == .automatic)

        #expect(Effective(Store(0, reducer: Self.reduce)) == defaults)
        #expect(Effective(Store(0, scheduler: DispatchDelayScheduler(), reducer: Self.reduce)) == defaults)
        #expect(Effective(Store(0, middlewares: [], reducer: Self.reduce)) == defaults)
    }

    @Test func cycleDetectionIsAutomaticInADebugBuildOfTheLibrary() {
        #if DEBUG
        #expect(Effective(Store(0, reducer: Self.reduce)).cycleDetection == .debugDefault)
        #else
        #expect(Effective(Store(0, reducer: Self.reduce)).cycleDetection == .off)
        #endif
    }

    @Test func theOptionsAnInitializerTakesReachTheTree() async {
        let clock = ManualScheduler()
        let strict = CycleDetection(maxDepth: 4, maxPerWindow: nil)
        let events = EventLog()
        let store = Store(
            0,
            options: .init(
                qos: .utility,
                scheduler: clock,
                middlewares: [Middleware("double") { action, context in context.next(action * 2) }],
                diagnostics: events,
                cycleDetection: strict
            ),
            reducer: Self.reduce
        )
        let effective = Effective(store)
        #expect(effective.qos == Self.queueQoS(.utility))
        #expect(!effective.wallClock)
        #expect(effective.hasDiagnostics)
        #expect(effective.cycleDetection == strict)
        #expect(await store.send(3) == 6)
        #expect(events.count > 0)
    }

    @Test func thePureduxInitializerKeepsItsQoS() {
        #expect(Effective(Store(0, qos: .background, reducer: Self.reduce)).qos == Self.queueQoS(.background))
    }
}

/// Counts the events diagnostics receive.
private final class EventLog: StoreDiagnostics, Sendable {
    private let events = LockedValue(0)
    var count: Int { events.withLock { $0 } }

    func record(_ event: StoreEvent) {
        events.withLock { $0 += 1 }
    }
}
