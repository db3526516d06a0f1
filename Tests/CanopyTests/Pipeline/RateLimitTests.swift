import CanopyTestSupport
import Testing

@testable import Canopy

/// Throttle, debounce and the in-flight cap: their decisions as values, and as middlewares on the manual
/// clock.
@Suite struct RateLimitTests {
    private static func isSync(_ action: String) -> Bool { action == "sync" }
    private static func isQuery(_ action: String) -> Bool { action.hasPrefix("q") }

    // MARK: Decisions as values

    @Test func throttleMachineLetsOnePassPerInterval() {
        var machine = ThrottleStateMachine(interval: 1)
        let decisions = [10, 10.5, 10.99, 11, 11.5, 20].map { machine.admit(at: $0) }
        #expect(decisions == [true, false, false, true, false, true])
    }

    @Test func debounceMachineReleasesOnlyTheLatestWhenItsTimerEnds() {
        var machine = ActionDebounceStateMachine<String>(interval: 0.3)
        let first = machine.received("q1")
        let second = machine.received("q2")
        #expect(!first.replaced && second.replaced)
        let stale = machine.quietTimeEnded(generation: first.generation)
        #expect(stale == nil && machine.isHolding)
        let released = machine.quietTimeEnded(generation: second.generation)
        #expect(released == "q2" && !machine.isHolding)
        let again = machine.quietTimeEnded(generation: second.generation)
        #expect(again == nil)
    }

    @Test func inFlightLimitAdmitsBelowTheLimit() {
        let limit = InFlightLimit(2)
        #expect(limit.admits(inFlight: 0))
        #expect(limit.admits(inFlight: 1))
        #expect(!limit.admits(inFlight: 2))
    }

    @Test(.exitTest) func aNegativeThrottleIntervalTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Middleware<Int, String>.throttle({ _ in true }, for: -1)
        }
    }

    @Test(.exitTest) func aNegativeDebounceIntervalTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Middleware<Int, String>.debounce({ _ in true }, for: -1)
        }
    }

    @Test(.exitTest) func anInFlightLimitBelowOneTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = Middleware<Int, String>.maxInFlight({ _ in true }, id: "x", limit: 0)
        }
    }

    // MARK: Middlewares on the manual clock

    @Test func throttleBlocksRepeatsWithinTheIntervalAndLetsOthersThrough() {
        let harness = PipelineHarness<Int, String>([.throttle(Self.isSync, for: 5)])
        #expect(harness.run("sync", state: 0).summary == "forward(sync)")
        #expect(harness.run("sync", state: 0).summary == "blocked(throttle)")
        #expect(harness.run("other", state: 0).summary == "forward(other)")
        harness.scheduler.advance(by: 4.9)
        #expect(harness.run("sync", state: 0).summary == "blocked(throttle)")
        harness.scheduler.advance(by: 0.1)
        #expect(harness.run("sync", state: 0).summary == "forward(sync)")
    }

    @Test func throttleKeepsSeparateCountsPerStore() {
        let throttle = Middleware<Int, String>.throttle(Self.isSync, for: 5)
        let first = PipelineHarness([throttle])
        let second = PipelineHarness([throttle])
        #expect(first.run("sync", state: 0).summary == "forward(sync)")
        #expect(second.run("sync", state: 0).summary == "forward(sync)")
    }

    @Test func debounceReleasesTheLastActionAfterTheQuietTimeBehindItself() {
        let trail = StateRecorder<String>()
        let after = Middleware<Int, String>("after") { action, context in
            trail.record(action)
            context.next(action)
        }
        let harness = PipelineHarness([.debounce(Self.isQuery, for: 0.3), after])
        #expect(harness.run("q1", state: 0).summary == "blocked(debounce)")
        harness.scheduler.advance(by: 0.2)
        #expect(harness.run("q2", state: 0).summary == "blocked(debounce)")
        #expect(harness.run("other", state: 0).summary == "forward(other)")
        harness.scheduler.advance(by: 0.2)
        #expect(harness.dispatched.values.isEmpty)
        harness.scheduler.advance(by: 0.1)
        #expect(harness.dispatched.values.map(\.action) == ["q2"])
        let released = harness.dispatched.values[0]
        #expect(released.startIndex == 1)
        #expect(harness.run(released.action, state: 0, startingAt: released.startIndex).summary == "forward(q2)")
        #expect(trail.values == ["other", "q2"])
        harness.scheduler.advance(by: 10)
        #expect(harness.dispatched.values.count == 1)
    }

    @Test func releasingTheStoreDropsAHeldAction() {
        let scheduler: ManualScheduler
        let dispatched: StateRecorder<PipelineHarness<Int, String>.Dispatched>
        do {
            let harness = PipelineHarness<Int, String>([.debounce(Self.isQuery, for: 0.3)])
            _ = harness.run("q1", state: 0)
            scheduler = harness.scheduler
            dispatched = harness.dispatched
            #expect(scheduler.pendingCount == 1)
        }
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 1)
        #expect(dispatched.values.isEmpty)
    }

    @Test func maxInFlightBlocksWhileTheLimitIsReached() async {
        let probe = CancellationProbe()
        let uploader = Middleware<Int, String>("uploader") { action, context in
            if action == "up" {
                context.run(id: "upload") { _ in await probe.waitForCancellation() }
            }
            context.next(action)
        }
        let harness = PipelineHarness([.maxInFlight({ $0 == "up" }, id: "upload", limit: 1), uploader])
        #expect(harness.run("up", state: 0).summary == "forward(up)")
        #expect(harness.run("up", state: 0).summary == "blocked(maxInFlight)")
        #expect(harness.run("other", state: 0).summary == "forward(other)")
        harness.tasks.cancel(id: "upload")
        #expect(harness.run("up", state: 0).summary == "forward(up)")
        harness.tasks.cancelAll()
    }
}
