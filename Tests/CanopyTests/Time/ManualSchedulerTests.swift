import CanopyTestSupport
import Dispatch
import Foundation
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct ManualSchedulerTests {
    private let queue = DispatchQueue(label: "manual-scheduler-tests")

    @Test func runsWorkOnlyWhenItsTimeComes() {
        let scheduler = ManualScheduler()
        let ran = StateRecorder<String>()
        _ = scheduler.schedule(after: 1, on: queue) { ran.record("a") }
        scheduler.advance(by: 0.5)
        #expect(ran.values.isEmpty)
        scheduler.advance(by: 0.5)
        #expect(ran.values == ["a"])
        #expect(scheduler.now == 1)
    }

    @Test func runsDueWorkInDeadlineThenSchedulingOrder() {
        let scheduler = ManualScheduler()
        let ran = StateRecorder<String>()
        _ = scheduler.schedule(after: 2, on: queue) { ran.record("late") }
        _ = scheduler.schedule(after: 1, on: queue) { ran.record("first") }
        _ = scheduler.schedule(after: 1, on: queue) { ran.record("second") }
        scheduler.advance(by: 5)
        #expect(ran.values == ["first", "second", "late"])
    }

    @Test func workScheduledByWorkRunsInTheSameAdvanceWhenDue() {
        let scheduler = ManualScheduler()
        let ran = StateRecorder<TimeInterval>()
        _ = scheduler.schedule(after: 1, on: queue) {
            ran.record(scheduler.now)
            _ = scheduler.schedule(after: 1, on: queue) { ran.record(scheduler.now) }
        }
        scheduler.advance(by: 3)
        #expect(ran.values == [1, 2])
        #expect(scheduler.now == 3)
    }

    @Test func cancelledWorkNeverRuns() {
        let scheduler = ManualScheduler()
        let ran = StateRecorder<String>()
        let work = scheduler.schedule(after: 1, on: queue) { ran.record("cancelled") }
        #expect(scheduler.pendingCount == 1)
        work.cancel()
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 2)
        #expect(ran.values.isEmpty)
    }

    @Test(.exitTest) func negativeOrNaNAdvanceIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            ManualScheduler().advance(by: -1)
        }
        await #expect(processExitsWith: .failure) {
            ManualScheduler().advance(by: .nan)
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct DispatchDelaySchedulerTests {
    @Test func runsWorkOnTheGivenQueue() async {
        let queue = DispatchQueue(label: "dispatch-scheduler-tests")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let onQueue = await withCheckedContinuation { continuation in
            _ = DispatchDelayScheduler().schedule(after: 0, on: queue) {
                continuation.resume(returning: DispatchQueue.getSpecific(key: key) == true)
            }
        }
        #expect(onQueue)
    }

    @Test func cancelledWorkNeverRuns() async {
        let queue = DispatchQueue(label: "dispatch-scheduler-tests")
        let ran = StateRecorder<String>()
        queue.suspend()
        let work = DispatchDelayScheduler().schedule(after: 0, on: queue) { ran.record("cancelled") }
        work.cancel()
        queue.resume()
        await settle(queue)
        #expect(ran.values.isEmpty)
    }

    @Test func clockIsMonotonic() {
        let scheduler = DispatchDelayScheduler()
        let first = scheduler.now
        #expect(scheduler.now >= first)
    }

    /// `now` reads the clock directly on Linux (the action recorder reads it for each action): it must
    /// be the clock `DispatchTime` reads, which deadlines use, so a reading falls between two of
    /// `DispatchTime.now()` taken around it.
    @Test func clockIsDispatchTimesClock() {
        func dispatchNow() -> TimeInterval {
            TimeInterval(DispatchTime.now().uptimeNanoseconds) / 1_000_000_000
        }
        let before = dispatchNow()
        let now = DispatchDelayScheduler().now
        let after = dispatchNow()
        #expect(before <= now && now <= after, "\(before) ≤ \(now) ≤ \(after)")
    }
}
