import Canopy
import CanopyTesting
import Foundation
import Testing

@testable import TaskBoard

/// Sync against the in-process remote, with retries and backoff, on the test store's clock: every
/// state change and every action the effects send is asserted, and nothing sleeps.
@Suite(.timeLimit(.minutes(1))) struct SyncEffectsTests {
    private static let milk = TaskItem(id: 1, title: "Buy milk")
    private static let latency = 0.3
    private let settings = TestBoard.sync

    /// The board as the app builds it, with one saved task and no saving; the tests assert the Sync
    /// state and the tasks.
    private func makeStore(
        failFirst: Int = 0,
        line: UInt = #line
    ) -> (store: TestStore<TestedSync, AppAction>, remote: RemoteService) {
        let (store, environment) = boardTestStore(
            observing: TestedSync.init,
            of: \.sync,
            saved: TasksSnapshot(nextID: 2, tasks: [Self.milk]),
            remote: TestBoard.remote(latency: Self.latency, failFirst: failFirst),
            line: line
        )
        return (store, environment.remote)
    }

    /// Sends a push and asserts its start and the start of its first attempt. A failure points at the
    /// test's `line`.
    private func startPush(_ store: TestStore<TestedSync, AppAction>, line: UInt = #line) async {
        await store.send(
            .sync(.start(.push)),
            assert: {
                $0.direction = .push
                $0.run = .attempt(0)
                $0.status = "push: pushing... attempt 1 of 3"
            },
            line: line
        )
        await store.receive(sync: .attemptStarted(attempt: 0), assert: { $0.activeAttempt = 0 }, line: line)
    }

    /// Asserts that the first attempt failed when its call ended, and that the second waits its backoff
    /// (1 s) in the store. A failure points at the test's `line`.
    private func receiveFirstFailure(_ store: TestStore<TestedSync, AppAction>, line: UInt = #line) async {
        let failedAt = TestBoard.start.addingTimeInterval(Self.latency)
        let reason = "request timed out"  // the first failure the remote's seed draws
        await store.receive(
            sync: .attemptFailed(reason: reason, at: failedAt),
            assert: {
                $0.run = .attempt(1, after: 1)
                $0.lastFailure = SyncState.FailedAttempt(attempt: 0, reason: reason, at: failedAt)
                $0.nextRetryAt = failedAt.addingTimeInterval(1)
                $0.status = "push: attempt 1 of 3 failed (\(reason)); next retry at 10:00:01 (attempt 2 of 3)"
            },
            line: line
        )
    }

    @Test func aFailedPushIsRetriedAfterItsBackoff() async {
        let (store, remote) = makeStore(failFirst: 1)
        await startPush(store)
        #expect(remote.callCount == 1)

        await receiveFirstFailure(store)
        #expect(store.now == Self.latency)
        await store.advance(by: 0.5)
        #expect(remote.callCount == 1)

        await store.receive(sync: .attemptStarted(attempt: 1)) {
            $0.activeAttempt = 1
            $0.nextRetryAt = nil
            $0.status = "push: pushing... attempt 2 of 3"
        }
        #expect(store.now == Self.latency + 1)
        #expect(remote.callCount == 2)
        await store.receive(sync: .pushed(taskCount: 1, remoteRevision: 1)) {
            $0.run = .succeeded
            $0.lastOutcome = "pushed 1 task (remote revision 1)"
            $0.status = "pushed 1 task (remote revision 1)"
        }
        #expect(store.now == Self.latency + 1 + Self.latency)
        await store.finish()
    }

    @Test func cancelDuringTheBackoffStopsTheRetry() async {
        let (store, remote) = makeStore(failFirst: 5)
        await startPush(store)
        await receiveFirstFailure(store)

        await store.send(.sync(.cancel)) {
            $0.run = .cancelled
            $0.lastOutcome = "push cancelled"
            $0.nextRetryAt = nil
            $0.status = "push cancelled"
        }
        await store.advance(by: 60)  // the retry never starts
        #expect(remote.callCount == 1)
        await store.finish()
    }

    @Test func cancelDuringACallCancelsItsTaskAndDropsItsResult() async {
        let (store, remote) = makeStore()
        await startPush(store)  // the call is in flight
        await store.send(.sync(.cancel)) {
            $0.run = .cancelled
            $0.lastOutcome = "push cancelled"
            $0.status = "push cancelled"
        }
        // Its task was cancelled: no effect is left (`finish`), and no result arrives.
        await store.advance(by: 1)
        #expect(remote.callCount == 1)
        await store.finish()
    }

    @Test func pushThenPullRoundTripsTheBoardThroughTheRemote() async {
        let (store, _) = makeStore()
        await startPush(store)
        await store.receive(sync: .pushed(taskCount: 1, remoteRevision: 1)) {
            $0.run = .succeeded
            $0.lastOutcome = "pushed 1 task (remote revision 1)"
            $0.status = "pushed 1 task (remote revision 1)"
        }

        await store.send(.tasks(.delete(id: 1))) { $0.tasks = [] }
        await store.send(.sync(.start(.pull))) {
            $0.direction = .pull
            $0.run = .attempt(0)
            $0.activeAttempt = nil
            $0.lastOutcome = nil
            $0.status = "pull: pulling... attempt 1 of 3"
        }
        await store.receive(sync: .attemptStarted(attempt: 0)) { $0.activeAttempt = 0 }
        let stored = RemoteService.Stored(revision: 1, board: TasksSnapshot(nextID: 2, tasks: [Self.milk]))
        await store.receive(sync: .pulled(stored)) {
            $0.tasks = [Self.milk]
            $0.run = .succeeded
            $0.lastOutcome = "pulled 1 task (remote revision 1)"
            $0.status = "pulled 1 task (remote revision 1)"
        }
        await store.finish()
    }

    @Test func autoSyncPushesPeriodicallyUntilTurnedOff() async {
        let (store, remote) = makeStore()
        let interval = settings.autoSyncInterval
        await store.send(.sync(.setAutoSync(true))) {
            $0.autoSync = true
            $0.status = "no sync yet; auto-sync is on"
        }
        await store.receive(sync: .autoSyncTick, timeout: interval) {
            $0.direction = .push
            $0.run = .attempt(0)
            $0.status = "push: pushing... attempt 1 of 3"
        }
        #expect(store.now == interval)
        await store.receive(sync: .attemptStarted(attempt: 0)) { $0.activeAttempt = 0 }
        await store.receive(sync: .pushed(taskCount: 1, remoteRevision: 1)) {
            $0.run = .succeeded
            $0.lastOutcome = "pushed 1 task (remote revision 1)"
            $0.status = "pushed 1 task (remote revision 1)"
        }

        await store.send(.sync(.setAutoSync(false))) { $0.autoSync = false }
        await store.advance(by: interval * 3)  // the timer was cancelled: no tick arrives
        #expect(remote.callCount == 1)
        await store.finish()
    }
}

extension TestStore where Action == AppAction {
    /// `receive(_:from:)` for Sync actions, which are not `Equatable`: two actions match when their
    /// JSON encodings do (every associated value, a failure's `Date` to the last bit).
    func receive(
        sync expected: SyncAction,
        timeout: TimeInterval? = nil,
        assert: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await receive(
            SyncActionJSON(expected),
            from: { $0.sync.map(SyncActionJSON.init) },
            timeout: timeout,
            assert: assert,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }
}

/// A Sync action as its JSON encoding, with sorted keys: equal when the actions are.
struct SyncActionJSON: Equatable, CustomStringConvertible {
    let description: String

    init(_ action: SyncAction) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            description = String(decoding: try encoder.encode(action), as: UTF8.self)
        } catch {
            description = "unencodable \(action): \(error)"
        }
    }
}

/// The Sync state as the tests state it, with the tasks it sees and its status line (in UTC).
struct TestedSync: Equatable {
    var tasks: [TaskItem]
    var run: TestedRun
    var direction: SyncState.Direction?
    var activeAttempt: Int?
    var lastFailure: SyncState.FailedAttempt?
    var lastOutcome: String?
    var autoSync: Bool
    var nextRetryAt: Date?
    var status: String

    init(_ state: SyncStoreState) {
        let sync = state.1
        tasks = Array(state.0.1.items)
        run = TestedRun(sync.run)
        direction = sync.direction
        activeAttempt = sync.activeAttempt
        lastFailure = sync.lastFailure
        lastOutcome = sync.lastOutcome
        autoSync = sync.autoSync
        nextRetryAt = sync.nextRetryAt
        status = SyncStatus.line(sync, timeZone: TimeZone(identifier: "UTC")!)
    }
}
