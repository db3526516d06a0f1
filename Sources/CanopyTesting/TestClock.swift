import Canopy
import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The scheduler of a test store's tree: a `ManualScheduler` whose work and effect runs are followed
/// by an ``EffectActivity``, and the hook (`TestHarness`) through which the store sees every action
/// of the tree.
final class TestClock: TestHarness {
    let manual = ManualScheduler()
    let activity = EffectActivity()
    private let onRootAction: @Sendable (any Sendable) -> Void
    private let rootCount = LockedValue(0)

    /// - Parameter onRootAction: Called on the tree's queue with each action, before the root reduces it.
    init(onRootAction: @escaping @Sendable (any Sendable) -> Void) {
        self.onRootAction = onRootAction
    }

    /// How many roots were created with this clock.
    var roots: Int {
        rootCount.withLock { $0 }
    }

    var now: TimeInterval {
        manual.now
    }

    func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        let run = (EffectRunContext.probe as? EffectRunTracker)?.id
        // Two steps, so that the run stays busy until the manual clock has the work: were it counted as
        // waiting first, a test could see nothing busy, move the clock past the deadline before the work
        // was on it, and the work would then be due only after the move.
        let id = activity.clockWorkScheduled(deadline: manual.now + max(delay, 0), by: run)
        let scheduled = manual.schedule(after: delay, on: queue) { [activity] in
            activity.clockWorkFinished(id)
            work()
        }
        // The manual clock may have moved meanwhile (work scheduled while `advance` runs): the recorded
        // deadline must never be earlier than the one the manual clock uses.
        activity.clockWorkArmed(id, deadline: manual.now + max(delay, 0))
        return ScheduledWork { [activity] in
            scheduled.cancel()
            activity.clockWorkFinished(id)
        }
    }

    /// Moves the manual clock to `deadline` exactly, running what falls due. Call it off the queues that
    /// work is scheduled on.
    func advance(to deadline: TimeInterval) {
        let now = manual.now
        guard deadline > now else {
            manual.runDue()
            return
        }
        // `ManualScheduler` computes its target as `now + interval`; make that sum reach `deadline`.
        var interval = deadline - now
        while now + interval < deadline {
            interval = interval.nextUp
        }
        manual.advance(by: interval)
    }

    func rootReducer<State: Sendable, Action: Sendable>(
        _ reducer: @escaping Reducer<State, Action>
    ) -> Reducer<State, Action> {
        rootCount.withLock { $0 += 1 }
        return { [onRootAction] state, action in
            onRootAction(action)
            reducer(&state, action)
        }
    }

    func effectRunStarted(delayed: Bool) -> any EffectRunProbe {
        EffectRunTracker(activity: activity, id: activity.runStarted(delayed: delayed))
    }
}
