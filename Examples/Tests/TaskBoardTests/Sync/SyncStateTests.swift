import Canopy
import Foundation
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct SyncStateTests {
    private let at = Date(timeIntervalSince1970: 1_741_946_400)

    private func started(_ direction: SyncState.Direction = .push) -> SyncState {
        var state = SyncState(settings: TestBoard.sync)
        SyncState.reducer(&state, .sync(.start(direction)))
        return state
    }

    @Test func startRunsTheEffectStateOnceAndIgnoresAStartWhileRunning() {
        var state = started()
        #expect(state.run.isInProgress)
        #expect(state.run.currentAttempt == 0)
        let run = state.run
        SyncState.reducer(&state, .sync(.start(.pull)))
        #expect(state.run == run)
        #expect(state.direction == .push)
    }

    @Test func aFailedAttemptRetriesWithBackoffAndKnowsWhen() {
        var state = started()
        SyncState.reducer(&state, .sync(.attemptStarted(attempt: 0)))
        SyncState.reducer(&state, .sync(.attemptFailed(reason: "503", at: at)))
        #expect(state.run.currentAttempt == 1)
        #expect(state.run.delay == 1)
        #expect(state.nextRetryAt == at.addingTimeInterval(1))
        SyncState.reducer(&state, .sync(.attemptStarted(attempt: 1)))
        #expect(state.nextRetryAt == nil)
        SyncState.reducer(&state, .sync(.attemptFailed(reason: "503", at: at)))
        #expect(state.run.delay == 2)
    }

    @Test func theLastFailedAttemptFailsTheSync() {
        var state = started()
        for _ in 0..<3 {
            SyncState.reducer(&state, .sync(.attemptFailed(reason: "reset", at: at)))
        }
        #expect(state.run.isFailed)
        #expect(state.lastOutcome == "push failed after 3 attempts: reset")
    }

    @Test func cancelStopsTheSyncAndALateResultChangesNothing() {
        var state = started()
        SyncState.reducer(&state, .sync(.cancel))
        #expect(state.run.isCancelled)
        SyncState.reducer(&state, .sync(.pushed(taskCount: 1, remoteRevision: 1)))
        #expect(state.run.isCancelled)
        #expect(state.lastOutcome == "push cancelled")
    }

    @Test func statusLineShowsAttemptsAndTheNextRetryTime() {
        var state = started()
        SyncState.reducer(&state, .sync(.attemptStarted(attempt: 0)))
        #expect(SyncStatus.line(state) == "push: pushing... attempt 1 of 3")
        SyncState.reducer(&state, .sync(.attemptFailed(reason: "503 service unavailable", at: at)))
        let utc = TimeZone(identifier: "UTC")!
        #expect(
            SyncStatus.line(state, timeZone: utc)
                == "push: attempt 1 of 3 failed (503 service unavailable); next retry at 10:00:01 (attempt 2 of 3)"
        )
        SyncState.reducer(&state, .sync(.pushed(taskCount: 2, remoteRevision: 4)))
        #expect(SyncStatus.line(state) == "pushed 2 tasks (remote revision 4)")
    }

    @Test func autoSyncTicksStartAPushOnlyWhileOn() {
        var state = SyncState(settings: TestBoard.sync)
        SyncState.reducer(&state, .sync(.autoSyncTick))
        #expect(state.run.isIdle)
        SyncState.reducer(&state, .sync(.setAutoSync(true)))
        SyncState.reducer(&state, .sync(.autoSyncTick))
        #expect(state.run.isInProgress)
        #expect(state.direction == .push)
    }
}
