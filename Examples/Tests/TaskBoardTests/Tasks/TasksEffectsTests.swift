import Canopy
import CanopyTesting
import Foundation
import Testing

@testable import TaskBoard

/// Saving and reminders on the test store's clock: every state change and every action the effects
/// send is asserted, and nothing sleeps.
@Suite(.timeLimit(.minutes(1))) struct TasksEffectsTests {
    private let settings = SaveState.Settings()

    /// The board as the app builds it, saving to `writer`; the tests assert the Tasks state.
    private func makeStore(
        writer: RecordingWriter,
        line: UInt = #line
    ) -> TestStore<TestedTasks, AppAction> {
        boardTestStore(observing: { TestedTasks($0.1) }, of: \.tasks, writer: writer, line: line).store
    }

    /// Adds task 1, "A", to the empty board: the first change, whose save waits its delay. A failure
    /// points at the test's `line`.
    @discardableResult
    private func addFirstTask(to store: TestStore<TestedTasks, AppAction>, line: UInt = #line) async -> TaskItem {
        let task = TaskItem(id: 1, title: "A")
        await store.send(
            .tasks(.add(title: "A")),
            assert: {
                $0.items = [task]
                $0.nextID = 2
                $0.revision = 1
                $0.lastEvent = .added(task)
                $0.saving.run = .attempt(0, after: settings.delay)
            },
            line: line
        )
        return task
    }

    @Test func aBurstOfChangesIsWrittenOnceAfterTheDelay() async {
        let writer = RecordingWriter(failures: 0)
        let store = makeStore(writer: writer)
        var added: [TaskItem] = []
        for (index, title) in ["A", "B", "C"].enumerated() {
            let task = TaskItem(id: index + 1, title: title)
            added.append(task)
            // Each change restarts the delayed write: only the last one of the burst writes.
            await store.send(.tasks(.add(title: title))) { [added] in
                $0.items = added
                $0.nextID = index + 2
                $0.revision = index + 1
                $0.lastEvent = .added(task)
                $0.saving.run = .attempt(0, after: settings.delay)
            }
        }
        await store.advance(by: settings.delay / 2)
        #expect(writer.attempts == 0)
        await store.receive(.saved(revision: 3), from: \.tasks) {
            $0.saving.run = .succeeded
            $0.saving.savedRevision = 3
        }
        #expect(store.now == settings.delay)
        #expect(writer.writes.map { $0.tasks.map(\.title) } == [["A", "B", "C"]])
        await store.finish()
    }

    @Test func aFailedWriteIsRetriedAndTheTasksStayInMemory() async {
        let writer = RecordingWriter(failures: 1)
        let store = makeStore(writer: writer)
        await addFirstTask(to: store)
        let backoff = settings.retryPolicy.delay(beforeRetry: 1)
        await store.receive(.saveFailed(reason: "no space left on device"), from: \.tasks) {
            $0.saving.run = .attempt(1, after: backoff)
            $0.saving.lastFailure = SaveState.FailedWrite(
                attempt: 0,
                reason: "no space left on device",
                willRetry: true
            )
            $0.saving.failureCount = 1
        }
        #expect(store.now == settings.delay)
        await store.advance(by: backoff / 2)  // the retry waits its backoff
        #expect(writer.attempts == 1)
        await store.receive(.saved(revision: 1), from: \.tasks) {
            $0.saving.run = .succeeded
            $0.saving.savedRevision = 1
            $0.saving.lastFailure = nil
        }
        #expect(store.now == settings.delay + backoff)
        #expect(writer.attempts == 2)
        #expect(writer.writes.map { $0.tasks.map(\.title) } == [["A"]])
        await store.finish()
    }

    @Test func flushWritesAtOnce() async {
        let writer = RecordingWriter(failures: 0)
        let store = makeStore(writer: writer)
        await addFirstTask(to: store)
        await store.send(.tasks(.flush)) { $0.saving.run = .attempt(0) }
        await store.receive(.saved(revision: 1), from: \.tasks) {
            $0.saving.run = .succeeded
            $0.saving.savedRevision = 1
        }
        #expect(store.now == 0)
        #expect(writer.writes.count == 1)
        await store.finish()
    }

    @Test func remindersFireOnTheirOwnAndARemovedOneIsCancelled() async {
        let store = makeStore(writer: RecordingWriter(failures: 0))
        let first = await addFirstTask(to: store)
        let second = TaskItem(id: 2, title: "B")
        await store.send(.tasks(.add(title: "B"))) {
            $0.items = [first, second]
            $0.nextID = 3
            $0.revision = 2
            $0.lastEvent = .added(second)
        }
        await store.send(.tasks(.flush)) { $0.saving.run = .attempt(0) }
        await store.receive(.saved(revision: 2), from: \.tasks) {
            $0.saving.run = .succeeded
            $0.saving.savedRevision = 2
        }

        await store.send(.tasks(.remind(id: 1, seconds: 10))) {
            $0.reminders = [TestedReminder(taskID: 1, delay: 10)]
            $0.lastEvent = .unchanged(first)
        }
        await store.send(.tasks(.remind(id: 2, seconds: 5))) {
            $0.reminders.append(TestedReminder(taskID: 2, delay: 5))
            $0.lastEvent = .unchanged(second)
        }
        await store.receive(.reminderFired(id: 2), from: \.tasks) {
            $0.reminders = [TestedReminder(taskID: 1, delay: 10)]
            $0.firedReminders = [second]
        }
        #expect(store.now == 5)

        var done = first
        done.isDone = true
        await store.send(.tasks(.complete(id: 1))) {
            $0.items = [done, second]
            $0.revision = 3
            $0.lastEvent = .updated(done)
            $0.reminders = []
            $0.saving.run = .attempt(0, after: settings.delay)
        }
        await store.receive(.saved(revision: 3), from: \.tasks) {
            $0.saving.run = .succeeded
            $0.saving.savedRevision = 3
        }
        await store.advance(by: 10)  // past the cancelled reminder's time: it never fires
        await store.finish()
    }
}

/// The Tasks state as the tests state it: effect runs without their random identity (``TestedRun``),
/// and the revision, which only the reducer can set.
struct TestedTasks: Equatable {
    var items: [TaskItem]
    var nextID: Int
    var revision: Int
    var lastEvent: TasksEvent?
    var saving: TestedSaving
    var reminders: [TestedReminder]
    var firedReminders: [TaskItem]

    init(_ state: TasksState) {
        items = state.items
        nextID = state.nextID
        revision = state.revision
        lastEvent = state.lastEvent
        saving = TestedSaving(state.saving)
        reminders = state.reminders.map(TestedReminder.init)
        firedReminders = state.firedReminders
    }
}

/// ``SaveState`` as the tests state it.
struct TestedSaving: Equatable {
    var run: TestedRun
    var savedRevision: Int
    var lastFailure: SaveState.FailedWrite?
    var failureCount: Int

    init(_ saving: SaveState) {
        run = TestedRun(saving.run)
        savedRevision = saving.savedRevision
        lastFailure = saving.lastFailure
        failureCount = saving.failureCount
    }
}

/// A ``Reminder`` as the tests state it.
struct TestedReminder: Equatable {
    var taskID: Int
    var delay: Double
    var run: TestedRun

    init(_ reminder: Reminder) {
        taskID = reminder.taskID
        delay = reminder.delay
        run = TestedRun(reminder.run)
    }

    /// A reminder waiting its delay.
    init(taskID: Int, delay: Double) {
        self.taskID = taskID
        self.delay = delay
        self.run = .attempt(0, after: delay)
    }
}
