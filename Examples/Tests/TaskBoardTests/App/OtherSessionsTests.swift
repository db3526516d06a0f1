import Canopy
import CanopyPersistence
import Foundation
import Testing

@testable import TaskBoard

/// A session and another process on one database: the prompt's look at the database between commands
/// (on the app's scheduler, said in one line), and a write that meets a task the other deleted.
@Suite(.timeLimit(.minutes(1))) struct OtherSessionsTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func anIdlePromptTakesAnotherSessionsCommitsWhenTheTimerFires() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = TaskItem(id: 1, title: "One")
        let three = TaskItem(id: 3, title: "Three")
        let test = try await DatabaseBoard(in: folder, tasks: [one, three])
        let (scheduler, board, theirs) = (test.scheduler, test.board, test.theirs)
        let (lines, written) = AsyncStream.makeStream(of: String.self)
        let console = Console(isTerminal: false, theme: Theme(colors: false)) { _, text in written.yield(text) }
        let session = Session(board: board, console: console, mode: .interactive) { TestBoard.day }
        let watch = try #require(ExternalChangesWatch.start(session))
        defer { watch.stop() }
        watch.setIdle(true)

        let renamed = TaskItem(id: 1, title: "One renamed")
        let two = TaskItem(id: 2, title: "Two")
        try await theirs.apply(upserts: [renamed, two], deletions: [3])
        scheduler.advance(by: 1.5)
        #expect(Array(await session.tasks().items) == [one, three], "nothing is read before the timer fires")
        scheduler.advance(by: 0.5)
        var next = lines.makeAsyncIterator()
        #expect(
            await next.next() == "note: another session added #2; changed #1; deleted #3 ('list' shows the board)\n"
        )
        #expect(Array(await session.tasks().items) == [renamed, two])
        // Taken without being written back, and a command on #3 says where it went.
        try await session.board.tasks.flush()
        #expect(try theirs.loadAll() == [renamed, two])
        await #expect(throws: CommandFailure.deletedElsewhere(3)) { try await session.requireTask(3) }
    }

    @Test func aScriptsWriteOfATaskDeletedElsewhereIsReportedAndNotWrittenBack() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = TaskItem(id: 1, title: "One")
        let two = TaskItem(id: 2, title: "Two")
        let test = try await DatabaseBoard(in: folder, tasks: [one, two])
        let captured = CapturedConsole()
        let session = Session(board: test.board, console: captured.console, mode: .script) { TestBoard.day }
        let reporting = session.reportBackgroundEvents()
        defer { for subscription in reporting { subscription.cancel() } }

        // A script's changes wait for the debounce; meanwhile another process deletes task 1.
        _ = try await session.change(.complete(id: 1))
        _ = try await session.change(.rename(id: 2, title: "Two renamed"))
        try await test.theirs.apply(upserts: [], deletions: [1])
        let conflict = await #expect(throws: PersistenceError.self) { try await test.board.tasks.flush() }
        #expect(conflict?.isConflict == true)
        #expect(captured.errors == "error: task #1 was deleted by another session; the change to it was not saved\n")
        // The rest of the batch is written next; task 1 is not brought back.
        try await test.board.tasks.flush()
        #expect(try test.theirs.loadAll() == [TaskItem(id: 2, title: "Two renamed")])
    }
}
