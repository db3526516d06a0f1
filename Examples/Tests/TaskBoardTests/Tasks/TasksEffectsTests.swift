import Canopy
import CanopyPersistence
import CanopyTesting
import Foundation
import Testing

@testable import TaskBoard

/// Storing the board and reminders on the test store's clock: every state change and every action the
/// effects send is asserted, and nothing sleeps; a write is awaited on the writer's own signal.
@Suite(.timeLimit(.minutes(1))) struct TasksEffectsTests {
    private let options = Environment().persistence

    /// The board as the app builds it, storing its changes through `writer`; the tests assert the Tasks
    /// state.
    private func makeStore(
        writer: RecordingWriter,
        line: UInt = #line
    ) -> (store: TestStore<TestedTasks, AppAction>, environment: Environment) {
        boardTestStore(observing: { TestedTasks($0.1) }, of: \.tasks, writer: writer, line: line)
    }

    /// Adds task 1, "A", to the empty board. A failure points at the test's `line`.
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
            },
            line: line
        )
        return task
    }

    /// Adds "B" after `first`, asserting the change, and returns the new task.
    private func addSecondTask(
        after first: TaskItem,
        to store: TestStore<TestedTasks, AppAction>,
        line: UInt = #line
    ) async -> TaskItem {
        let second = TaskItem(id: 2, title: "B")
        await store.send(
            .tasks(.add(title: "B")),
            assert: {
                $0.items = [first, second]
                $0.nextID = 3
                $0.revision = 2
                $0.lastEvent = .added(second)
            },
            line: line
        )
        return second
    }

    @Test func aBurstOfChangesIsWrittenAsOneBatchOnceTheBoardIsQuiet() async {
        let writer = RecordingWriter()
        let store = makeStore(writer: writer).store
        var added: [TaskItem] = []
        for (index, title) in ["A", "B", "C"].enumerated() {
            let task = TaskItem(id: index + 1, title: title)
            added.append(task)
            await store.send(.tasks(.add(title: title))) { [added] in
                $0.items = added
                $0.nextID = index + 2
                $0.revision = index + 1
                $0.lastEvent = .added(task)
            }
        }
        await store.send(.tasks(.rename(id: 2, title: "B2"))) {
            $0.items[1].title = "B2"
            $0.revision = 4
            $0.lastEvent = .updated(TaskItem(id: 2, title: "B2"))
        }
        await store.advance(by: options.debounce / 2)
        #expect(writer.attempts == 0, "the debounce is not over")
        await store.advance(by: options.debounce / 2)
        await writer.waitForAttempts(1)
        // Each task once, with its latest value; nothing else was written.
        #expect(writer.batches == [WriteBatch(upserts: [added[0], TaskItem(id: 2, title: "B2"), added[2]])])
        await store.send(.tasks(.delete(id: 1))) {
            $0.items = [TaskItem(id: 2, title: "B2"), added[2]]
            $0.revision = 5
            $0.lastEvent = .deleted(added[0])
        }
        await store.advance(by: options.debounce)
        await writer.waitForAttempts(2)
        #expect(writer.batches.last == WriteBatch(deletions: [1]))
        await store.finish()
    }

    @Test func aFailedWriteIsRetriedWithTheChangesMadeMeanwhileAndNothingIsLost() async {
        let writer = RecordingWriter(failures: 1)
        let store = makeStore(writer: writer).store
        let first = await addFirstTask(to: store)
        await store.advance(by: options.debounce)
        await writer.waitForAttempts(1)
        let second = await addSecondTask(after: first, to: store)
        await store.advance(by: options.retryPolicy.delay(beforeRetry: 1))
        await writer.waitForAttempts(2)
        #expect(writer.batches == [WriteBatch(upserts: [first, second])])
        #expect(writer.stored == [first, second])
        await store.finish()
    }

    @Test func hydratingTheSavedBoardWritesNothing() async throws {
        let test = TestBoard()
        await test.board.tasks.send(
            .tasks(.restore(TasksSnapshot(nextID: 3, tasks: [TaskItem(id: 2, title: "Saved")])))
        )
        try await test.board.tasks.flush()
        test.scheduler.advance(by: 10)
        #expect(test.writer.attempts == 0)
        #expect(Array(await test.board.tasks.state.1.items) == [TaskItem(id: 2, title: "Saved")])
    }

    @Test func flushWritesAtOnceAndThrowsTheWritersError() async throws {
        let test = TestBoard(writeFailures: 1)
        await test.board.tasks.send(.tasks(.add(title: "A")))
        let error = await #expect(throws: PersistenceError.self) { try await test.board.tasks.flush() }
        #expect(error.map { ErrorText.describe($0.underlying) } == "no space left on device")
        // (`saves` hears of the failure on the tree's queue, possibly after `flush()` threw; of a write,
        // before `flush()` returns.)
        try await test.board.tasks.flush()
        #expect(test.scheduler.now == 0, "no delay was waited")
        #expect(test.writer.stored == [TaskItem(id: 1, title: "A")])
        #expect(test.board.environment.saves.failure == nil)
    }

    @Test func remindersFireOnTheirOwnAndARemovedOneIsCancelled() async {
        let store = makeStore(writer: RecordingWriter()).store
        let first = await addFirstTask(to: store)
        let second = await addSecondTask(after: first, to: store)

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
    var reminders: [TestedReminder]
    var firedReminders: [TaskItem]

    init(_ state: TasksState) {
        items = Array(state.items)
        nextID = state.nextID
        revision = state.revision
        lastEvent = state.lastEvent
        reminders = state.reminders.map(TestedReminder.init)
        firedReminders = state.firedReminders
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
