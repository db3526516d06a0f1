import Canopy
import CanopyPersistence
import Foundation
import Testing

@testable import TaskBoard

/// The prompt's look at the database between commands: on the app's scheduler, only while the prompt
/// waits for a line, and said in one line.
@Suite(.timeLimit(.minutes(1))) struct ExternalChangesWatchTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func anIdlePromptTakesAnotherSessionsCommitsWhenTheTimerFires() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("tasks.sqlite")
        let theirs = try TaskDatabase(url: url)
        try await theirs.apply(
            upserts: [TaskItem(id: 1, title: "One"), TaskItem(id: 3, title: "Three")],
            deletions: []
        )
        let mine = try TaskDatabase(url: url)
        let saved = try mine.snapshot()
        let scheduler = ManualScheduler()
        let board = withDependencies {
            $0.scheduler = scheduler
        } operation: {
            var environment = Environment(writer: TaskWriter(database: mine))
            environment.database = mine
            return Board(today: TestBoard.day, saved: saved, environment: environment)
        }
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
        #expect(Array(await session.tasks().items) == saved.tasks, "nothing is read before the timer fires")
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
}
