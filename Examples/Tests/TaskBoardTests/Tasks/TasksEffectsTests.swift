import Canopy
import Testing

@testable import TaskBoard

/// Saving and reminders, driven by the manual scheduler.
@Suite(.timeLimit(.minutes(1))) struct TasksEffectsTests {
    @Test func aBurstOfChangesIsWrittenOnceAfterTheDelay() async throws {
        let test = TestBoard()
        let tasks = test.board.tasks
        let delay = test.board.environment.saving.delay
        let base = test.scheduler.counts.scheduled
        for title in ["A", "B", "C"] {
            await tasks.send(.tasks(.add(title: title)))
        }
        // Each change restarted the delayed write; only the last one is still waiting.
        await test.scheduler.waitForScheduled(base + 3, pending: 1)
        test.scheduler.advance(by: delay)
        let saved = try #require(await firstState(of: tasks) { $0.1.isSaved })
        #expect(saved.1.saving.savedRevision == 3)
        #expect(test.writer.writes.map { $0.tasks.map(\.title) } == [["A", "B", "C"]])
    }

    @Test func aFailedWriteIsRetriedAndTheTasksStayInMemory() async throws {
        let test = TestBoard(failingWrites: 1)
        let tasks = test.board.tasks
        let settings = test.board.environment.saving
        let base = test.scheduler.counts.scheduled
        await tasks.send(.tasks(.add(title: "A")))
        await test.scheduler.waitForScheduled(base + 1, pending: 1)
        test.scheduler.advance(by: settings.delay)

        let failed = try #require(await firstState(of: tasks) { $0.1.saving.failureCount == 1 })
        #expect(
            failed.1.saving.lastFailure
                == SaveState.FailedWrite(attempt: 0, reason: "no space left on device", willRetry: true)
        )
        #expect(failed.1.items.map(\.title) == ["A"])
        await test.scheduler.waitForScheduled(base + 2, pending: 1)  // the retry waits its backoff
        test.scheduler.advance(by: settings.retryPolicy.delay(beforeRetry: 1))

        let saved = try #require(await firstState(of: tasks) { $0.1.isSaved })
        #expect(saved.1.saving.lastFailure == nil)
        #expect(test.writer.attempts == 2)
        #expect(test.writer.writes.count == 1)
    }

    @Test func flushWritesAtOnce() async throws {
        let test = TestBoard()
        let tasks = test.board.tasks
        await tasks.send(.tasks(.add(title: "A")))
        await tasks.send(.tasks(.flush))
        let saved = try #require(await firstState(of: tasks) { $0.1.isSaved })
        #expect(saved.1.saving.savedRevision == 1)
        #expect(test.writer.writes.count == 1)
    }

    @Test func remindersFireOnTheirOwnAndARemovedOneIsCancelled() async throws {
        let test = TestBoard()
        let tasks = test.board.tasks
        await tasks.send(.tasks(.add(title: "A")))
        await tasks.send(.tasks(.add(title: "B")))
        await tasks.send(.tasks(.flush))
        _ = await firstState(of: tasks) { $0.1.isSaved }
        let base = test.scheduler.counts.scheduled

        await tasks.send(.tasks(.remind(id: 1, seconds: 10)))
        await tasks.send(.tasks(.remind(id: 2, seconds: 5)))
        await test.scheduler.waitForScheduled(base + 2, pending: 2)
        test.scheduler.advance(by: 5)
        let fired = try #require(await firstState(of: tasks) { !$0.1.firedReminders.isEmpty })
        #expect(fired.1.firedReminders.map(\.id) == [2])

        await tasks.send(.tasks(.complete(id: 1)))
        await test.scheduler.wait { $0.pending <= 1 }  // only the save of the completion may wait
        test.scheduler.advance(by: 10)
        await tasks.send(.tasks(.flush))
        let final = try #require(await firstState(of: tasks) { $0.1.isSaved })
        #expect(final.1.firedReminders.map(\.id) == [2])
    }
}
