import Testing

@testable import CanopyTesting

/// What `EffectActivity` counts as busy while an effect's task puts work on the test clock: the store
/// moves the clock only when no run is busy, so a run must stay busy until the manual clock has its work.
@Suite struct EffectActivityTests {
    @Test func aRunStaysBusyUntilItsClockWorkIsArmed() {
        let activity = EffectActivity()
        let run = activity.runStarted(delayed: false)
        #expect(activity.busyCount == 1)
        let work = activity.clockWorkScheduled(deadline: 1, by: run)
        // Not on the manual clock yet: moving the clock now could pass the deadline before the work is due.
        #expect(activity.busyCount == 1)
        activity.clockWorkArmed(work, deadline: 1)
        #expect(activity.busyCount == 0)
        #expect(activity.nextDeadline == 1)
        activity.clockWorkFinished(work)
        #expect(activity.busyCount == 1)
        #expect(activity.nextDeadline == nil)
    }

    @Test func workThatRanBeforeItWasArmedLeavesItsRunBusy() {
        let activity = EffectActivity()
        let run = activity.runStarted(delayed: false)
        let work = activity.clockWorkScheduled(deadline: 1, by: run)
        // The clock moved between the two steps and ran the work: its run goes on, busy.
        activity.clockWorkFinished(work)
        activity.clockWorkArmed(work, deadline: 1)
        #expect(activity.busyCount == 1)
        #expect(activity.nextDeadline == nil)
    }

    @Test func armingKeepsTheLaterOfTheTwoDeadlines() {
        let activity = EffectActivity()
        let run = activity.runStarted(delayed: false)
        let work = activity.clockWorkScheduled(deadline: 1, by: run)
        // The manual clock moved while the work was put on it, so it falls due later than first recorded.
        activity.clockWorkArmed(work, deadline: 1.5)
        #expect(activity.nextDeadline == 1.5)
        let earlier = activity.clockWorkScheduled(deadline: 3, by: run)
        activity.clockWorkArmed(earlier, deadline: 2)
        #expect(activity.nextDeadline == 1.5)
        activity.clockWorkFinished(work)
        #expect(activity.nextDeadline == 3)
    }
}
