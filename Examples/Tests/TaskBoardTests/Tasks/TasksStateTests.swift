import Canopy
import CanopyPersistence
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
        #expect(Array(state.items) == [TaskItem(id: 1, title: "Quarterly report", tags: ["work"], due: due)])
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

    @Test func eachChangeRecordsTheIDsItTouchedForTheWriter() {
        var state = reduced(.add(title: "A"), .add(title: "B"), .add(title: "C", id: 9))
        #expect(state.items.map(\.id) == [1, 2, 9], "a reserved id is used as given")
        #expect(state.nextID == 10)
        #expect(state.items.changes.upserted == [1, 2, 9])
        _ = state.items.takeChanges()
        TasksState.reducer(&state, .tasks(.complete(id: 2)))
        TasksState.reducer(&state, .tasks(.complete(id: 2)))
        TasksState.reducer(&state, .tasks(.delete(id: 1)))
        TasksState.reducer(&state, .tasks(.remind(id: 9, seconds: 5)))
        #expect(state.items.changes.upserted == [2])
        #expect(state.items.changes.deleted == [1])
    }

    @Test func restoreLoadsTheBoardWithoutRecordingAChange() {
        let snapshot = TasksSnapshot(nextID: 8, tasks: [TaskItem(id: 5, title: "Old")])
        let state = reduced(.restore(snapshot))
        #expect(Array(state.items) == snapshot.tasks)
        #expect(state.nextID == 8)
        #expect(state.items.changes.isEmpty)
        #expect(state.revision == 0)
    }

    @Test func anImportReplacesTheBoardAndRecordsTheDifference() {
        var state = reduced(.add(title: "A"), .add(title: "B"))
        _ = state.items.takeChanges()
        let imported = TasksSnapshot(nextID: 12, tasks: [TaskItem(id: 2, title: "B"), TaskItem(id: 11, title: "New")])
        TasksState.reducer(&state, .tasks(.replace(imported)))
        #expect(Array(state.items) == imported.tasks)
        #expect(state.nextID == 12)
        #expect(state.items.changes.deleted == [1])
        // Task 2 comes back unchanged: no copy of it is written.
        #expect(state.items.changes.upserted == [11])
        #expect(state.revision == 3)
        _ = state.items.takeChanges()
        TasksState.reducer(&state, .tasks(.replace(imported)))
        #expect(state.items.changes.isEmpty, "the same board again changes nothing")
        #expect(state.revision == 3)
    }

    @Test func aPullReplacesTheBoardAsItTravelsUp() {
        var state = reduced(.add(title: "Local"))
        let remote = RemoteService.Stored(
            revision: 3,
            board: TasksSnapshot(nextID: 4, tasks: [TaskItem(id: 3, title: "Remote")])
        )
        TasksState.reducer(&state, .sync(.pulled(remote)))
        #expect(Array(state.items) == remote.board.tasks)
        #expect(state.nextID == 4)
        #expect(state.revision == 2)
        #expect(state.items.changes.deleted == [1], "the writer stores the pulled board")
        TasksState.reducer(&state, .sync(.pulled(remote)))
        #expect(state.revision == 2)
        TasksState.reducer(&state, .sync(.pulled(nil)))
        #expect(Array(state.items) == remote.board.tasks)
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

    @Test func anotherSessionsChangesAreTakenWithoutBeingRecorded() {
        var state = reduced(.add(title: "A"), .add(title: "B"), .add(title: "C"))
        _ = state.items.takeChanges()
        let changed = TaskItem(id: 2, title: "B elsewhere")
        let added = TaskItem(id: 4, title: "D")
        TasksState.reducer(&state, .tasks(.merge(upserts: [changed, added], deletions: [3], nextID: 5)))
        #expect(Array(state.items) == [TaskItem(id: 1, title: "A"), changed, added])
        #expect(state.items.changes.isEmpty)
        #expect(state.nextID == 5)
        TasksState.reducer(&state, .tasks(.complete(id: 3)))
        #expect(state.lastEvent == .deletedElsewhere(id: 3))
        TasksState.reducer(&state, .tasks(.delete(id: 9)))
        #expect(state.lastEvent == .notFound(id: 9))
    }

    @Test func aPullKeepsWhatAnotherSessionDeletedAddedOrChangedSinceTheLastPull() {
        var state = reduced(.add(title: "A"), .add(title: "B"), .add(title: "C"))
        let pushed = state.snapshot
        _ = state.items.takeChanges()
        let changed = TaskItem(id: 2, title: "B elsewhere")
        let added = TaskItem(id: 4, title: "D")
        TasksState.reducer(&state, .tasks(.merge(upserts: [changed, added], deletions: [3], nextID: 5)))
        TasksState.reducer(&state, .sync(.pulled(RemoteService.Stored(revision: 1, board: pushed))))
        #expect(Array(state.items) == [TaskItem(id: 1, title: "A"), changed, added])
        #expect(state.items.changes.isEmpty)
        // Once pulled, the next pull takes the remote's board again.
        TasksState.reducer(&state, .sync(.pulled(RemoteService.Stored(revision: 2, board: pushed))))
        #expect(Array(state.items) == pushed.tasks)
        #expect(state.items.changes.deleted == [4])
    }
}
