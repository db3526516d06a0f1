import Dispatch
import Testing

@testable import Canopy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Work by id: replacing, cancelling, dropping late results, release, independence of trees, the clock.
@Suite struct TaskRegistryTests {
    /// A registry with recorders for what its runs deliver and what it reports.
    private struct Fixture {
        let queue = DispatchQueue(label: "task-registry-tests")
        let scheduler = SignallingScheduler()
        let diagnostics = DiagnosticsRecorder()
        let delivered = LockedValue<[(action: String, run: EffectRun)]>([])
        let registry: TaskRegistry

        init() {
            registry = TaskRegistry(queue: queue, scheduler: scheduler, diagnostics: diagnostics)
        }

        func run(
            _ id: String,
            cancelInFlight: Bool = false,
            _ operation: @escaping @Sendable (TaskContext<String>) async throws -> Void
        ) {
            let delivered = self.delivered
            registry.run(
                id: id,
                cancelInFlight: cancelInFlight,
                store: .root,
                deliver: { action, run in delivered.withLock { $0.append((action, run)) } },
                operation: operation
            )
        }

        /// The delivered actions the engine would still reduce now (their run is current).
        func reducible() -> [String] {
            delivered.withLock { $0.filter { $0.run.isCurrent }.map(\.action) }
        }

        var deliveredCount: Int {
            delivered.withLock { $0.count }
        }
    }

    @Test func aNewRunWithCancelInFlightCancelsTheOneUnderTheSameID() async {
        let fixture = Fixture()
        let probe = CancellationProbe()
        fixture.run("search", cancelInFlight: true) { _ in await probe.waitForCancellation(run: 1) }
        _ = await probe.events.waitFor(count: 1)
        fixture.run("search", cancelInFlight: true) { _ in await probe.waitForCancellation(run: 2) }
        #expect(probe.values.prefix(2) == [.started(1), .cancelled(1)])
        _ = await probe.events.waitFor(count: 3)
        #expect(probe.values == [.started(1), .cancelled(1), .started(2)])
        #expect(fixture.registry.inFlightCount(id: "search") == 1)
        fixture.registry.cancelAll()
        #expect(probe.values.last == .cancelled(2))
    }

    @Test func withoutCancelInFlightRunsShareAnIDAndCancelStopsThemAll() async {
        let fixture = Fixture()
        let probe = CancellationProbe()
        fixture.run("upload") { _ in await probe.waitForCancellation(run: 1) }
        fixture.run("upload") { _ in await probe.waitForCancellation(run: 2) }
        _ = await probe.events.waitFor(count: 2)
        #expect(fixture.registry.inFlightCount(id: "upload") == 2)
        fixture.registry.cancel(id: "upload")
        #expect(
            probe.values.map(String.init(describing:)).sorted() == [
                "cancelled(1)", "cancelled(2)", "started(1)", "started(2)",
            ]
        )
        #expect(fixture.registry.inFlightCount(id: "upload") == 0)
    }

    @Test func actionsOfACancelledRunAreDroppedEvenWhenAlreadyQueued() async {
        let fixture = Fixture()
        let probe = CancellationProbe()
        let sentLate = StateRecorder<Bool>()
        fixture.run("search") { task in
            task.send("early")
            await probe.waitForCancellation(run: 1)
            task.send("late")
            sentLate.record(task.isCurrent)
        }
        _ = await probe.events.waitFor(count: 1)
        #expect(fixture.reducible() == ["early"])
        fixture.registry.cancel(id: "search")
        #expect(await sentLate.waitFor(count: 1) == [false])
        #expect(fixture.deliveredCount == 1)
        #expect(fixture.reducible().isEmpty)
    }

    @Test func aRunThatEndsByItselfKeepsItsLastResults() async {
        let fixture = Fixture()
        fixture.run("load") { task in task.send("result") }
        let events = await fixture.diagnostics.events.waitFor(count: 2)
        #expect(events.map(\.description) == ["root started work load", "root finished work load"])
        #expect(fixture.reducible() == ["result"])
        #expect(fixture.registry.inFlightCount(id: "load") == 0)
    }

    @Test func cancelAllStopsEverythingAndRefusesNewRuns() async {
        let fixture = Fixture()
        let probe = CancellationProbe()
        fixture.run("a") { _ in await probe.waitForCancellation(run: 1) }
        fixture.run("b") { _ in await probe.waitForCancellation(run: 2) }
        _ = await probe.events.waitFor(count: 2)
        fixture.registry.cancelAll()
        #expect(
            probe.values.map(String.init(describing:)).sorted() == [
                "cancelled(1)", "cancelled(2)", "started(1)", "started(2)",
            ]
        )
        fixture.run("c") { _ in await probe.waitForCancellation(run: 3) }
        drain(fixture.queue)
        #expect(fixture.registry.inFlightCount(id: "c") == 0)
        #expect(probe.values.count == 4)
    }

    @Test func releasingTheRegistryCancelsItsRuns() async {
        let probe = CancellationProbe()
        do {
            let fixture = Fixture()
            fixture.run("a") { _ in await probe.waitForCancellation(run: 1) }
            _ = await probe.events.waitFor(count: 1)
        }
        #expect(probe.values == [.started(1), .cancelled(1)])
    }

    @Test func theSameIDInTwoRegistriesIsIndependent() async {
        let first = Fixture()
        let second = Fixture()
        let probe = CancellationProbe()
        first.run("sync") { _ in await probe.waitForCancellation(run: 1) }
        second.run("sync") { _ in await probe.waitForCancellation(run: 2) }
        _ = await probe.events.waitFor(count: 2)
        first.registry.cancel(id: "sync")
        #expect(probe.values.contains(.cancelled(1)))
        #expect(!probe.values.contains(.cancelled(2)))
        #expect(second.registry.inFlightCount(id: "sync") == 1)
        second.registry.cancelAll()
    }

    @Test func sleepWaitsOnTheTreesClock() async {
        let fixture = Fixture()
        let woke = StateRecorder<TimeInterval>()
        fixture.run("poll") { task in
            try await task.sleep(for: 1)  // allowed: the manual clock
            woke.record(task.now)
            task.send("woke")
        }
        _ = await fixture.scheduler.scheduled.waitFor(count: 1)
        fixture.scheduler.manual.advance(by: 0.5)
        #expect(woke.values.isEmpty)
        fixture.scheduler.manual.advance(by: 0.5)
        #expect(await woke.waitFor(count: 1) == [1])
        _ = await fixture.diagnostics.events.waitFor(count: 2)
        #expect(fixture.reducible() == ["woke"])
    }

    @Test func cancellingASleepingRunRemovesItsTimerAndReportsNoError() async {
        let fixture = Fixture()
        let ended = StateRecorder<String>()
        fixture.run("poll") { task in
            do {
                try await task.sleep(for: 10)  // allowed: the manual clock
                ended.record("woke")
            } catch {
                ended.record("\(type(of: error))")
                throw error
            }
        }
        _ = await fixture.scheduler.scheduled.waitFor(count: 1)
        fixture.registry.cancel(id: "poll")
        // The clock hears of the wait a moment before the sleep holds its work, so a cancel may come
        // in between: then the sleeping task takes the work off the clock, before the sleep throws.
        #expect(await ended.waitFor(count: 1) == ["CancellationError"])
        #expect(fixture.scheduler.manual.pendingCount == 0)
        #expect(fixture.diagnostics.lines == ["root started work poll", "root cancelled work poll"])
    }

    @Test func aCancelThatComesWhileTheClockSchedulesTheWaitStillTakesTheWaitOffTheClock() async {
        let fixture = Fixture()
        let registry = fixture.registry
        fixture.scheduler.whileScheduling.withLock { $0 = { registry.cancel(id: "poll") } }
        let pendingWhenThrown = StateRecorder<Int>()
        let clock = fixture.scheduler.manual
        fixture.run("poll") { task in
            do {
                try await task.sleep(for: 10)  // allowed: the manual clock
            } catch {
                pendingWhenThrown.record(clock.pendingCount)
                throw error
            }
        }
        #expect(await pendingWhenThrown.waitFor(count: 1) == [0])
    }

    @Test func anErrorThrownByARunIsReported() async {
        struct Offline: Error {}
        let fixture = Fixture()
        fixture.run("sync") { _ in throw Offline() }
        let events = await fixture.diagnostics.events.waitFor(count: 3)
        #expect(
            events.map(\.description) == [
                "root started work sync", "root unhandled error from run sync while handling run sync: Offline()",
                "root finished work sync",
            ]
        )
    }

    @Test func aMiddlewareStartsWorkThatSendsToItsNode() async {
        let probe = CancellationProbe()
        let search = Middleware<Int, String>("search") { action, context in
            context.run(id: "search", cancelInFlight: true) { task in
                task.send("results for \(action)")
                await probe.waitForCancellation(run: action.count)
            }
            context.next(action)
        }
        let harness = PipelineHarness([search])
        _ = harness.run("a", state: 0)
        _ = await probe.events.waitFor(count: 1)
        _ = harness.run("ab", state: 0)
        _ = await probe.events.waitFor(count: 3)
        #expect(harness.takeDelivered() == ["results for ab"])
        #expect(probe.values == [.started(1), .cancelled(1), .started(2)])
        harness.tasks.cancelAll()
    }
}

/// A manual clock that also records each piece of work scheduled, so a test can wait until a task has
/// started waiting on it before moving time.
final class SignallingScheduler: DelayScheduler {
    let manual = ManualScheduler()
    let scheduled = StateRecorder<TimeInterval>()
    /// Called, once, when the next work is on the clock and before `schedule` returns it: the moment
    /// between the two. Let go of after the call, so that it may hold what holds the scheduler.
    let whileScheduling = LockedValue<(@Sendable () -> Void)?>(nil)

    var now: TimeInterval {
        manual.now
    }

    func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let handle = manual.schedule(after: delay, on: queue, work)
        scheduled.record(delay)
        whileScheduling.exchange(nil)?()
        return handle
    }
}
