import ArgumentParser
import Canopy
import CanopyPersistence
import Testing

@testable import TaskBoard

/// A change at the prompt is confirmed only once stored; a writer that fails (a full disk) makes the
/// command fail with the cause, keeps the change in memory, and the next write stores it.
@Suite(.timeLimit(.minutes(1))) struct SessionSaveTests {
    private func session(_ test: TestBoard, _ captured: CapturedConsole, mode: Session.Mode) -> Session {
        var session = Session(board: test.board, console: captured.console, mode: mode) { TestBoard.day }
        session.tasksPath = "/data/tasks.sqlite"
        return session
    }

    @Test func aChangeAtThePromptReturnsOnceItIsStored() async throws {
        let test = TestBoard()
        let captured = CapturedConsole()
        try await session(test, captured, mode: .interactive).run(try AddCommand.parse(["Buy", "milk"]))
        #expect(captured.output == "added #1 [ ] Buy milk\n")
        #expect(test.writer.stored == [TaskItem(id: 1, title: "Buy milk")], "stored before the command returned")
        #expect(test.scheduler.now == 0, "without waiting for the debounce")
    }

    @Test func aFullDiskFailsTheCommandWithTheCauseAndTheNextWriteStoresEverything() async throws {
        let test = TestBoard(writeFailures: 1)
        let captured = CapturedConsole()
        let prompt = session(test, captured, mode: .interactive)
        let failure = await #expect(throws: CommandFailure.self) {
            try await prompt.run(try AddCommand.parse(["First"]))
        }
        #expect(
            failure?.description
                == "could not save the change to /data/tasks.sqlite (no space left on device) (it is kept in memory "
                + "and retried; the next change, and leaving TaskBoard, try again)"
        )
        try await prompt.run(try AddCommand.parse(["Second"]))
        #expect(test.writer.stored.map(\.title) == ["First", "Second"])
        #expect(test.board.environment.saves.failure == nil)
        #expect(await prompt.finish())
    }

    @Test func aScriptKeepsTheDebouncedWritesAndItsEndStoresWhatIsLeft() async throws {
        let test = TestBoard()
        let captured = CapturedConsole()
        let script = session(test, captured, mode: .script)
        try await script.run(try AddCommand.parse(["A"]))
        try await script.run(try AddCommand.parse(["B"]))
        #expect(test.writer.attempts == 0, "nothing written yet: the debounce has not passed")
        #expect(await script.finish())
        #expect(test.writer.batches.map { $0.upserts.map(\.title) } == [["A", "B"]])
    }

    @Test func aRunOfFailedWritesIsReportedOnceWhoeverReportsItFirst() {
        let events = SessionEvents()
        // At the prompt: the command reports the failure; the writer's event, arriving after, is not.
        events.awaitingSave(true)
        #expect(!events.takeSaveFailure())
        events.commandReportedSaveFailure()
        events.awaitingSave(false)
        #expect(!events.takeSaveFailure())
        #expect(events.takeSaveRecovery(), "the write that ends it is worth a line")
        #expect(!events.takeSaveRecovery())
        // In the background: the first failure of a run is reported, its retries are not.
        #expect(events.takeSaveFailure())
        #expect(!events.takeSaveFailure())
        events.finishing()
        #expect(!events.takeSaveRecovery(), "the end of the run says it itself")
    }
}
