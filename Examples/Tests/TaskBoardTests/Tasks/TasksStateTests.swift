import Canopy
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct TasksStateTests {
    private func reduced(_ actions: TasksAction...) -> TasksState {
        var state = TasksState()
        for action in actions { TasksState.reducer(&state, .tasks(action)) }
        return state
    }

    @Test func addNumbersTasksAndNormalizesTitleAndTags() {
        let state = reduced(.add(title: "  Buy milk ", tags: ["#Home", "home", "errands"]), .add(title: "Walk"))
        #expect(state.items.map(\.id) == [1, 2])
        #expect(state.items[0].title == "Buy milk")
        #expect(state.items[0].tags == ["errands", "home"])
        #expect(state.lastEvent == .added(state.items[1]))
        #expect(state.revision == 2)
    }

    @Test func completeReopenEditTagAndDue() {
        let due = Day(year: 2025, month: 1, day: 2)
        let state = reduced(
            .add(title: "Report"),
            .complete(id: 1),
            .reopen(id: 1),
            .rename(id: 1, title: "Quarterly report"),
            .tag(id: 1, tags: ["work", "q1"]),
            .untag(id: 1, tags: ["#q1"]),
            .setDue(id: 1, due: due)
        )
        #expect(state.items == [TaskItem(id: 1, title: "Quarterly report", tags: ["work"], due: due)])
        #expect(state.revision == 7)
    }

    @Test func aNoOpIsReportedAsUnchangedAndIsNotARevision() {
        let state = reduced(.add(title: "A"), .complete(id: 1), .complete(id: 1))
        #expect(state.lastEvent == .unchanged(TaskItem(id: 1, title: "A", isDone: true)))
        #expect(state.revision == 2)
    }

    @Test func unknownIDsAreReportedAsNotFound() {
        for action in [
            TasksAction.complete(id: 9), .delete(id: 9), .rename(id: 9, title: "x"), .remind(id: 9, seconds: 1),
        ] {
            #expect(reduced(action).lastEvent == .notFound(id: 9))
        }
    }

    @Test func deleteKeepsNumbersOfOtherTasksAndNeverReusesThem() {
        let state = reduced(.add(title: "A"), .add(title: "B"), .delete(id: 2), .add(title: "C"))
        #expect(state.items.map(\.id) == [1, 3])
    }

    @Test func everyChangeRestartsTheDelayedSave() {
        var state = reduced(.add(title: "A"))
        let first = state.saving.run
        #expect(first.isInProgress)
        #expect(first.delay == state.saving.settings.delay)
        TasksState.reducer(&state, .tasks(.add(title: "B")))
        #expect(state.saving.run != first)
        #expect(state.saving.run.isInProgress)
    }

    @Test func restoreLoadsTheBoardWithoutSavingItAgain() {
        let snapshot = TasksSnapshot(nextID: 8, tasks: [TaskItem(id: 5, title: "Old")])
        let state = reduced(.restore(snapshot))
        #expect(state.items == snapshot.tasks)
        #expect(state.nextID == 8)
        #expect(state.saving.run.isIdle)
        #expect(state.isSaved)
    }

    @Test func saveResultsMoveTheSaveState() {
        var state = reduced(.add(title: "A"))
        TasksState.reducer(&state, .tasks(.saveFailed(reason: "disk full")))
        #expect(state.saving.run.currentAttempt == 1)
        #expect(state.saving.lastFailure == SaveState.FailedWrite(attempt: 0, reason: "disk full", willRetry: true))
        TasksState.reducer(&state, .tasks(.saved(revision: 1)))
        #expect(state.isSaved)
        #expect(state.saving.lastFailure == nil)
        #expect(state.saving.failureCount == 1)
        #expect(state.items.count == 1)
    }

    @Test func failedWritesGiveUpAfterTheLastAttemptAndKeepTheTasks() {
        var state = reduced(.add(title: "A"))
        for _ in 0..<state.saving.settings.maxAttempts {
            TasksState.reducer(&state, .tasks(.saveFailed(reason: "disk full")))
        }
        #expect(state.saving.run.isFailed)
        #expect(state.saving.lastFailure?.willRetry == false)
        #expect(!state.isSaved)
        #expect(state.items.count == 1)
        TasksState.reducer(&state, .tasks(.flush))
        #expect(state.saving.run.isInProgress)
        #expect(state.saving.run.delay == 0)
    }

    @Test func aPermanentFailureIsNotRetried() {
        var state = reduced(.add(title: "A"))
        TasksState.reducer(&state, .tasks(.saveFailed(reason: "permission denied", permanent: true)))
        #expect(state.saving.run.isFailed)
        #expect(
            state.saving.lastFailure == SaveState.FailedWrite(attempt: 0, reason: "permission denied", willRetry: false)
        )
        #expect(state.items.count == 1)
    }

    @Test func aPullReplacesTheBoardAsItTravelsUp() {
        var state = reduced(.add(title: "Local"))
        let remote = RemoteService.Stored(
            revision: 3,
            board: TasksSnapshot(nextID: 4, tasks: [TaskItem(id: 3, title: "Remote")])
        )
        TasksState.reducer(&state, .sync(.pulled(remote)))
        #expect(state.items == remote.board.tasks)
        #expect(state.nextID == 4)
        #expect(state.revision == 2)
        TasksState.reducer(&state, .sync(.pulled(remote)))
        #expect(state.revision == 2)
        TasksState.reducer(&state, .sync(.pulled(nil)))
        #expect(state.items == remote.board.tasks)
    }

    @Test func remindersAreReplacedAndDroppedWithTheirTask() {
        var state = reduced(.add(title: "A"), .add(title: "B"), .remind(id: 1, seconds: 60), .remind(id: 2, seconds: 5))
        TasksState.reducer(&state, .tasks(.remind(id: 1, seconds: 30)))
        #expect(state.reminders.map(\.taskID) == [2, 1])
        #expect(state.reminders.map(\.delay) == [5, 30])
        TasksState.reducer(&state, .tasks(.complete(id: 2)))
        TasksState.reducer(&state, .tasks(.delete(id: 1)))
        #expect(state.reminders.isEmpty)
    }

    @Test func aFiredReminderIsRecordedOnce() {
        var state = reduced(.add(title: "A"), .remind(id: 1, seconds: 5))
        TasksState.reducer(&state, .tasks(.reminderFired(id: 1)))
        TasksState.reducer(&state, .tasks(.reminderFired(id: 1)))
        #expect(state.firedReminders.map(\.id) == [1])
        #expect(state.reminders.isEmpty)
    }
}
