import CanopyTestSupport
import Testing

@testable import Canopy

/// Cycle detection as a value: depth and frequency limits, each crossing reported once, nothing dropped.
@Suite struct CycleDetectorTests {
    enum Action {
        case query(String)
        case reset
    }

    struct Plain {}

    @Test func reportsAChainTheFirstTimeItGoesPastTheDepthLimit() {
        var detector = CycleDetector(CycleDetection(maxDepth: 3, maxPerWindow: nil))
        let shallow = detector.record(kind: "ping", causes: [], now: 0)
        let atLimit = detector.record(kind: "ping", causes: ["ping", "pong"], now: 0)
        let past = detector.record(kind: "ping", causes: ["ping", "pong", "ping"], now: 0)
        let further = detector.record(kind: "pong", causes: ["ping", "pong", "ping", "ping"], now: 0)
        #expect(shallow.isEmpty && atLimit.isEmpty && further.isEmpty)
        #expect(
            past == [CycleReport(reason: .depth(4, limit: 3), kind: "ping", chain: ["ping", "pong", "ping", "ping"])]
        )
        #expect(past.first?.description == "cycle: chain of 4 actions (limit 3): ping → pong → ping → ping")
    }

    @Test func reportsAKindThatComesTooOftenOncePerCrossing() {
        var detector = CycleDetector(CycleDetection(maxDepth: nil, maxPerWindow: 3, window: 1))
        let arrivals: [(String, Double)] = [
            ("tick", 0), ("tick", 0.1), ("tick", 0.2), ("tick", 0.3), ("tick", 0.4), ("tock", 0.4),
            ("tick", 5), ("tick", 5.1), ("tick", 5.2), ("tick", 5.3),
        ]
        let reports = arrivals.map { kind, time in detector.record(kind: kind, causes: ["start"], now: time) }
        #expect(reports.map(\.count) == [0, 0, 0, 1, 0, 0, 0, 0, 0, 1])
        #expect(
            reports[3] == [
                CycleReport(reason: .frequency(4, limit: 3, window: 1), kind: "tick", chain: ["start", "tick"])
            ]
        )
    }

    @Test func actionsOlderThanTheWindowDoNotCount() {
        var detector = CycleDetector(CycleDetection(maxDepth: nil, maxPerWindow: 2, window: 1))
        let reports = stride(from: 0.0, to: 10, by: 0.6).map { detector.record(kind: "tick", causes: [], now: $0) }
        #expect(reports.allSatisfy { $0.isEmpty })
    }

    @Test func offNeverReports() {
        var detector = CycleDetector(.off)
        #expect(!CycleDetection.off.isEnabled)
        let reports = (0..<100).map { detector.record(kind: "a", causes: Array(repeating: "a", count: $0), now: 0) }
        #expect(reports.allSatisfy { $0.isEmpty })
    }

    @Test func debugDefaultIsOn() {
        #expect(CycleDetection.debugDefault.isEnabled)
        #expect(CycleDetection.debugDefault.maxDepth == 32)
    }

    @Test func aKindIsTheCaseNameOrTheTypeName() {
        #expect(CycleDetector.kind(of: Action.query("canopy")) == "query")
        #expect(CycleDetector.kind(of: Action.reset) == "reset")
        #expect(CycleDetector.kind(of: Plain()) == "Plain")
        #expect(CycleDetector.kind(of: 42) == "Int")
    }

    @Test(.exitTest) func aDepthLimitBelowOneTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = CycleDetection(maxDepth: 0, maxPerWindow: nil)
        }
    }
}
