import ArgumentParser
import Canopy
import Foundation
import GRDB
import Testing

@testable import TaskBoard

/// Every number, duration, date and id is checked where it enters, with a message that names the
/// limit, and what a script did before a failing line is kept.
@Suite(.timeLimit(.minutes(1))) struct InputLimitsTests {
    private func failure(_ line: String) -> CommandFailure? {
        #expect(throws: CommandFailure.self) { try LineParser.parse(line) }
    }

    private func command<Command: BoardCommand>(_ line: String, as type: Command.Type) throws -> Command {
        guard case .command(let command) = try LineParser.parse(line) else {
            throw CommandFailure("'\(line)' is not a command")
        }
        return try #require(command as? Command)
    }

    @Test func aDelayLongerThanAWeekIsRefusedNamingTheLimit() {
        #expect(failure("remind 1 1e308")?.message == "the delay must be at most 168h (a week), not '1e308'")
        #expect(
            failure("remind 1 99999999999999999999")?.message
                == "the delay must be at most 168h (a week), not '99999999999999999999'"
        )
        #expect(failure("remind 1 169h")?.message == "the delay must be at most 168h (a week), not '169h'")
        #expect(failure("remind 1 inf")?.message == "'inf' is not a delay; write it like 90s, 5m or 2h")
        #expect((try? command("remind 1 168h", as: RemindCommand.self))?.delay == "168h")
    }

    @Test func aDurationTooLargeForWholeSecondsIsStillWritten() {
        #expect(DurationText.text(1e308) == "1e+308s")
        #expect(DurationText.text(.infinity) == "infs")
        #expect(DurationText.text(90) == "1m30s")
    }

    @Test func negativeLookingValuesReachTheCommandInsteadOfBeingReadAsOptions() throws {
        #expect(try command("due 4 -1d", as: DueCommand.self).dates == [.daysFromToday(-1)])
        #expect(try command("tag 4 -x", as: TagCommand.self).tags == ["-x"])
        #expect(failure("done -1")?.message == "task numbers go from 1 to 999999999, not -1")
        #expect(failure("due 4")?.message.hasPrefix("Missing expected argument") == true)
        #expect(failure("due 4 +1d +2d")?.message == "give one date, like +3d")
        #expect(failure("tag 4")?.message.hasPrefix("Missing expected argument") == true)
    }

    @Test func taskNumbersOutsideTheRangeAreRefusedNamingIt() {
        for line in [
            "done 0", "reopen 1000000000", "delete 9223372036854775807", "edit 0 x", "tag 0 home", "due 0 +1d",
        ] {
            #expect(failure(line)?.message.hasPrefix("task numbers go from 1 to 999999999, not ") == true, "\(line)")
        }
    }

    @Test func aDateAfterTheLastDayIsRefusedWhereItIsTypedOrComputed() throws {
        let last = try #require(Day(iso: "9999-12-31"))
        #expect(throws: CommandFailure("+1d from 9999-12-31 is after 9999-12-31, the last date a task may be due")) {
            try DueInput.daysFromToday(1).resolve(today: last)
        }
        #expect(throws: CommandFailure("-1d from 0001-01-01 is before 0001-01-01, the first date a task may be due")) {
            try DueInput.daysFromToday(-1).resolve(today: Day.first)
        }
        let typed = try #require(DueInput(argument: "10000-01-01"))
        #expect(throws: CommandFailure("10000-01-01 is after 9999-12-31, the last date a task may be due")) {
            try typed.resolve(today: last)
        }
        #expect(last.adding(days: 1) == nil)
        // Int.min has no absolute value: it must not be asked for one.
        let farthest = try #require(DueInput(argument: "-9223372036854775808d"))
        #expect(
            throws: CommandFailure("a date is at most 36500 days (100 years) from today, not -9223372036854775808d")
        ) {
            try farthest.resolve(today: last)
        }
        #expect(try DueInput.daysFromToday(0).resolve(today: last) == last)
        #expect(throws: (any Error).self) { try GlobalOptions.parse(["--today", "10000-01-01"]) }
    }

    @Test func aDateAfterTheLastDayThatIsAlreadyStoredIsReadBack() throws {
        // An older TaskBoard stored `+1d` from 9999-12-31; the board it is on must stay readable, so
        // that `due <id> none` can clear it.
        let stored = try #require(Day(iso: "10000-01-01"))
        #expect(stored.description == "10000-01-01")
        #expect(!stored.isInRange)
        let task = try TaskRow(TaskItem(id: 2, title: "y", due: stored)).task()
        #expect(task.due == stored)
        #expect(Day(iso: "+999-01-01") == nil)
        #expect(Day(iso: "100000-01-01") == nil)
    }

    @Test func idsOutOfRangeInAFileARowOrALogAreRefusedNamingTheLimit() {
        let huge = TasksSnapshot(nextID: 1, tasks: [TaskItem(id: Int.max, title: "x")])
        #expect(throws: TasksSnapshot.Problem.invalidID(Int.max)) { try huge.validated() }
        #expect(
            TasksSnapshot.Problem.invalidID(Int.max).description
                == "task id 9223372036854775807 is not a number from 1 to 999999999"
        )
        #expect(throws: TasksSnapshot.Problem.invalidNextID(Int.max)) {
            try TasksSnapshot(nextID: Int.max, tasks: []).validated()
        }
        #expect(throws: TaskRowProblem(id: Int.max, reason: "its id is not a number from 1 to 999999999")) {
            try TaskRow(TaskItem(id: Int.max, title: "x")).task()
        }
        #expect(ActionLogging.problem(with: .tasks(.complete(id: Int.max))) != nil)
        #expect(ActionLogging.problem(with: .tasks(.add(title: "x", id: Int.max))) != nil)
        #expect(ActionLogging.problem(with: .tasks(.restore(huge))) != nil)
        #expect(ActionLogging.problem(with: .tasks(.complete(id: 3))) == nil)
        // A merge of another process's rows is checked as a board is.
        let merged = [TaskItem(id: Int.max, title: "x")]
        #expect(ActionLogging.problem(with: .tasks(.merge(upserts: merged, deletions: [], nextID: 2))) != nil)
        #expect(ActionLogging.problem(with: .tasks(.merge(upserts: [], deletions: [Int.max], nextID: 2))) != nil)
        let fine = [TaskItem(id: 1, title: "x")]
        #expect(ActionLogging.problem(with: .tasks(.merge(upserts: fine, deletions: [2], nextID: 3))) == nil)
        // A remote copy whose revision a push could not count on from.
        let remote = RemoteService.Stored(revision: Int.max, board: TasksSnapshot(nextID: 1, tasks: []))
        #expect(throws: RemoteService.Stored.InvalidRevision(revision: Int.max)) { try remote.validated() }
        #expect(
            RemoteService.Stored.InvalidRevision(revision: Int.max).description
                == "revision 9223372036854775807 is not a number from 0 to 999999999"
        )
    }

    @Test func aDatabaseCounterPastTheRangeRefusesToAddInsteadOfOverflowing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-limits-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try TaskDatabase(url: folder.appendingPathComponent("tasks.sqlite"))
        defer { database.close() }
        #expect(try await database.reserveID() == 1)
        try await database.queue.write { db in
            try db.execute(sql: "UPDATE board SET next_id = ?", arguments: [Int.max])
        }
        let refused = await #expect(throws: TaskDatabaseError.self) { try await database.reserveID() }
        #expect(refused?.cause == "the board's next task number, 9223372036854775807, is past 999999999, the last one")
    }

    @Test func aTitleHasALengthLimitNamedInTheMessage() async {
        let long = String(repeating: "é", count: TaskRules.longestTitle + 1)
        #expect(
            TaskRules.problem(with: .tasks(.add(title: long)))
                == "a title has at most 4000 characters, not 4001; put the rest in another task"
        )
        #expect(TaskRules.problem(with: .tasks(.rename(id: 1, title: long))) != nil)
        #expect(TaskRules.problem(with: .tasks(.add(title: String(long.dropLast())))) == nil)
        // A file brings titles in too: `import`, an old tasks.json, the remote copy.
        let file = TasksSnapshot(nextID: 1, tasks: [TaskItem(id: 1, title: long)])
        #expect(throws: TasksSnapshot.Problem.titleTooLong(id: 1, length: 4001)) { try file.validated() }
        let test = TestBoard()
        let (succeeded, captured) = await test.runScript("add \(long)")
        #expect(!succeeded)
        #expect(captured.errors.contains("a title has at most 4000 characters"))
        #expect(await test.board.tasks.state.1.items.isEmpty)
    }

    @Test func whatAScriptDidBeforeAFailingLineIsStored() async {
        let test = TestBoard()
        let captured = CapturedConsole()
        let session = Session(board: test.board, console: captured.console, mode: .script) { TestBoard.day }
        let script = (1...100).map { "add Task \($0)" } + ["remind 1 1e308"]
        let succeeded = await ScriptRunner.run(
            InputLines.lines(of: script.joined(separator: "\n")),
            in: session,
            echo: false,
            name: "test"
        )
        #expect(!succeeded)
        #expect(captured.errors.hasPrefix("error: test:101: the delay must be at most 168h"))
        #expect(captured.output.components(separatedBy: "\nadded #").count == 100)
        #expect(await session.finish())
        #expect(test.writer.stored.map(\.title) == (1...100).map { "Task \($0)" })
    }

    @Test func bidirectionalControlsAreEscapedLikeOtherControls() {
        #expect(TerminalText.escaped("photo\u{202E}gnp.exe") == #"photo\u{202e}gnp.exe"#)
        #expect(
            TerminalText.escaped("a\u{2066}b\u{2069}\u{200F}\u{061C}") == #"a\u{2066}b\u{2069}\u{200f}\u{61c}"#
        )
        #expect(TerminalText.escaped("עברית") == "עברית")
    }
}
