import CanopyTestSupport
import Testing

@testable import Canopy

/// The small public values of the pipeline: store ids, outcomes and event descriptions.
@Suite struct PipelineValueTests {
    struct Offline: Error {}

    @Test func aStoreIDIsThePathFromTheRoot() {
        let id = StoreID.root.child(1).child(0)
        #expect(id.description == "root/1/0")
        #expect(id.depth == 2)
        #expect(StoreID.root.description == "root")
        #expect(id == StoreID(path: [1, 0]))
        #expect(id != StoreID(path: [0, 1]))
    }

    @Test(.exitTest) func aNegativeChildIndexTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = StoreID(path: [-1])
        }
    }

    @Test func onlyAReducedOutcomeHasAState() {
        #expect(DispatchOutcome<Int>.reduced(3).state == 3)
        #expect(DispatchOutcome<Int>.blocked.state == nil)
        #expect(DispatchOutcome<Int>.failed(Offline()).state == nil)
    }

    @Test(arguments: [
        (Duration.nanoseconds(850), "850 ns"), (.nanoseconds(3_040), "3.0 µs"), (.microseconds(1_250), "1.3 ms"),
        (.milliseconds(2_500), "2.5 s"),
    ])
    func reducerDurationsReadInTheirUnit(duration: Duration, text: String) {
        #expect(
            StoreEvent.reduced(store: .root, action: "a", duration: duration).description == "root reduced a in \(text)"
        )
    }

    @Test func eventsNameTheirStoreAndDescribeThemselves() {
        let store = StoreID.root.child(2)
        let events: [StoreEvent] = [
            .received(store: store, action: "add(1)"),
            .reduced(store: store, action: "add(1)", duration: .microseconds(3)),
            .observersNotified(store: store, count: 1),
            .effectCancelled(store: store, id: "search"),
            .cycle(store: store, report: CycleReport(reason: .depth(2, limit: 1), kind: "a", chain: ["a", "a"])),
        ]
        #expect(events.allSatisfy { $0.store == store })
        #expect(
            events.map(\.description) == [
                "root/2 received add(1)", "root/2 reduced add(1) in 3.0 µs", "root/2 notified 1 observer",
                "root/2 cancelled work search", "root/2 cycle: chain of 2 actions (limit 1): a → a",
            ]
        )
    }
}
