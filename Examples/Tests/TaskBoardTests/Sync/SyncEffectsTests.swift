import Canopy
import Foundation
import Testing

@testable import TaskBoard

/// Sync against the in-process remote, with retries and backoff on the manual scheduler.
@Suite(.timeLimit(.minutes(1))) struct SyncEffectsTests {
    private func board(failFirst: Int = 0) async -> TestBoard {
        let test = TestBoard(remote: TestBoard.remote(latency: 0.3, failFirst: failFirst))
        await test.board.tasks.send(.tasks(.add(title: "Buy milk")))
        await test.saveNow()
        return test
    }

    @Test func aFailedPushIsRetriedAfterItsBackoff() async throws {
        let test = await board(failFirst: 1)
        let scheduler = test.scheduler
        let sync = test.board.sync
        let remote = test.board.environment.remote
        let base = scheduler.counts.scheduled

        sync.dispatch(.sync(.start(.push)))
        await scheduler.waitForScheduled(base + 1, pending: 1)  // attempt 1 is talking to the remote
        scheduler.advance(by: 0.3)

        // Attempt 1 failed; attempt 2 waits for its backoff (1 s) in the store's scheduler.
        let waiting = try #require(await firstState(of: sync) { $0.1.lastFailure != nil })
        #expect(waiting.1.run.currentAttempt == 1)
        #expect(waiting.1.nextRetryAt == TestBoard.start.addingTimeInterval(0.3 + 1))
        #expect(SyncStatus.line(waiting.1).contains("attempt 1 of 3 failed"))
        #expect(SyncStatus.line(waiting.1).contains("next retry at"))
        await scheduler.waitForScheduled(base + 2, pending: 1)
        scheduler.advance(by: 0.5)
        #expect(remote.callCount == 1)

        scheduler.advance(by: 0.5)
        await scheduler.waitForScheduled(base + 3, pending: 1)  // attempt 2 is talking to the remote
        #expect(remote.callCount == 2)
        scheduler.advance(by: 0.3)

        let done = try #require(await firstState(of: sync) { !$0.1.run.isInProgress })
        #expect(done.1.run.isSuccess)
        #expect(done.1.lastOutcome == "pushed 1 task (remote revision 1)")
    }

    @Test func cancelDuringTheBackoffStopsTheRetry() async throws {
        let test = await board(failFirst: 5)
        let scheduler = test.scheduler
        let sync = test.board.sync
        let base = scheduler.counts.scheduled

        sync.dispatch(.sync(.start(.push)))
        await scheduler.waitForScheduled(base + 1, pending: 1)
        scheduler.advance(by: 0.3)
        await scheduler.waitForScheduled(base + 2, pending: 1)  // the retry is scheduled

        await sync.send(.sync(.cancel))
        await scheduler.waitForScheduled(base + 2, pending: 0)  // and now it is not
        scheduler.advance(by: 60)
        #expect(test.board.environment.remote.callCount == 1)
        #expect(await sync.state.1.run.isCancelled)
    }

    @Test func cancelDuringACallCancelsItsTaskAndDropsItsResult() async throws {
        let test = await board()
        let scheduler = test.scheduler
        let sync = test.board.sync
        let base = scheduler.counts.scheduled

        sync.dispatch(.sync(.start(.push)))
        await scheduler.waitForScheduled(base + 1, pending: 1)  // the call is in flight
        await sync.send(.sync(.cancel))
        await scheduler.waitForScheduled(base + 1, pending: 0)  // its task was cancelled
        scheduler.advance(by: 1)
        let state = await sync.state.1
        #expect(state.run.isCancelled)
        #expect(state.lastOutcome == "push cancelled")
    }

    @Test func pushThenPullRoundTripsTheBoardThroughTheRemote() async throws {
        let test = await board()
        let scheduler = test.scheduler
        let sync = test.board.sync
        let base = scheduler.counts.scheduled

        sync.dispatch(.sync(.start(.push)))
        await scheduler.waitForScheduled(base + 1, pending: 1)
        scheduler.advance(by: 0.3)
        _ = await firstState(of: sync) { $0.1.run.isSuccess }

        let beforeDelete = scheduler.counts.scheduled
        await test.board.tasks.send(.tasks(.delete(id: 1)))
        await scheduler.waitForScheduled(beforeDelete + 1, pending: 1)  // the delayed save
        sync.dispatch(.sync(.start(.pull)))
        await scheduler.waitForScheduled(beforeDelete + 2, pending: 2)  // and the pull's call
        scheduler.advance(by: 0.3)
        let pulled = try #require(await firstState(of: sync) { $0.1.run.isSuccess })
        #expect(pulled.0.1.items.map(\.title) == ["Buy milk"])
    }

    @Test func autoSyncPushesPeriodicallyUntilTurnedOff() async throws {
        let test = await board()
        let scheduler = test.scheduler
        let sync = test.board.sync
        let base = scheduler.counts.scheduled
        let interval = TestBoard.sync.autoSyncInterval

        await sync.send(.sync(.setAutoSync(true)))
        await scheduler.waitForScheduled(base + 1, pending: 1)  // the timer
        scheduler.advance(by: interval)
        // The tick started a push, whose call is now in flight, and the timer is armed again.
        await scheduler.waitForScheduled(base + 3, pending: 2)
        scheduler.advance(by: 0.3)
        _ = await firstState(of: sync) { $0.1.run.isSuccess }

        await sync.send(.sync(.setAutoSync(false)))
        await scheduler.wait { $0.pending == 0 }
        scheduler.advance(by: interval * 3)
        #expect(test.board.environment.remote.callCount == 1)
    }
}
