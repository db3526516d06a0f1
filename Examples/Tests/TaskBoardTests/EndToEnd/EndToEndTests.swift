import Foundation
import GRDB
import Testing

@testable import TaskBoard

/// Runs the built `taskboard` binary, as a user or CI would, against a temporary data folder.
@Suite(.timeLimit(.minutes(1))) struct EndToEndTests {
    struct Run {
        let status: Int32
        let output: String
        let errors: String
    }

    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func run(_ arguments: [String], input: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = try TaskBoardBinary.url()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read to the end before waiting, so a full pipe cannot block the child.
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            output: String(decoding: out, as: UTF8.self),
            errors: String(decoding: err, as: UTF8.self)
        )
    }

    private var data: String { folder.appendingPathComponent("data").path }

    @Test func aScriptManagesTasksSearchesShowsStatsAndSyncsWithARetry() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("board.tb")
        try """
        # a comment
        add Buy milk --tag home --due 2025-03-14
        add Write report --tag work --due 2025-03-10
        add Fix the bike --tag home
        done 3
        list --open
        search --no-wait re
        search report
        stats
        push
        status
        """.write(to: script, atomically: true, encoding: .utf8)
        let result = try run([
            "--script", script.path, "--data-dir", data, "--today", "2025-03-14", "--latency", "0.05",
            "--fail-first", "1", "--retry-delay", "0.1", "--seed", "3",
        ])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.errors.isEmpty)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("2 open tasks:"))
        #expect(lines.contains("  #2 [ ] Write report #work  overdue by 4 days (2025-03-10)"))
        #expect(lines.contains("  #2 [ ] Write [report] #work"))
        // Whether `search --no-wait re` is still running when the next line starts depends on real time
        // (a search takes 0.25 s here): SearchEffectsTests checks the superseded count on the test clock.
        #expect(lines.contains("tasks: 3  open: 2  done: 1  completion: 33%"))
        #expect(lines.contains("push: pushing... attempt 1 of 4"))
        #expect(lines.contains { $0.hasPrefix("push: attempt 1 of 4 failed (") && $0.contains("next retry at") })
        #expect(lines.contains("push: pushing... attempt 2 of 4"))
        #expect(lines.contains("pushed 3 tasks (remote revision 1)"))
        #expect(lines.contains("saved: writing soon") || lines.contains("saved: yes"))

        #expect(try StoredBoard.titles(in: data) == ["Buy milk", "Write report", "Fix the bike"])
        #expect(FileManager.default.fileExists(atPath: data + "/remote.json"))
    }

    @Test func oneShotCommandsShareTheBoard() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["add", "Buy", "milk", "--tag", "home", "--data-dir", data]).status == 0)
        #expect(try run(["--data-dir", data, "add", "Walk"]).status == 0)
        #expect(try run(["done", "2", "--data-dir", data]).status == 0)
        let list = try run(["list", "--open", "--data-dir", data])
        #expect(list.status == 0)
        #expect(list.output == "1 open task:\n  #1 [ ] Buy milk #home\n")
    }

    /// Issue 33: `--today 9999-12-31 add y --due +1d` stored 10000-01-01, and from then on every command
    /// on the board failed with "cannot be read".
    @Test func aDatePastTheCalendarIsRefusedAndOneAlreadyStoredCanBeCleared() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = try run(["--today", "9999-12-31", "add", "y", "--due", "+1d", "--data-dir", data])
        #expect(refused.status == 1)
        #expect(refused.errors == "error: +1d from 9999-12-31 is after 9999-12-31, the last date a task may be due\n")
        #expect(try StoredBoard.tasks(in: data).isEmpty)

        // A board an older TaskBoard left with such a day still reads, and the day can be cleared.
        let database = try TaskDatabase(url: URL(fileURLWithPath: data).appendingPathComponent("tasks.sqlite"))
        try await database.apply(upserts: [TaskItem(id: 1, title: "y", due: Day(iso: "10000-01-01"))], deletions: [])
        database.close()
        let listed = try run(["list", "--data-dir", data])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.hasSuffix("(10000-01-01)\n"))
        #expect(try run(["due", "1", "none", "--data-dir", data]).output == "updated #1 [ ] y\n")
        #expect(try StoredBoard.tasks(in: data) == [TaskItem(id: 1, title: "y")])
    }

    @Test func whatOneRunPushesTheNextRunCanPull() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let fast = ["--data-dir", data, "--latency", "0"]
        #expect(try run(["add", "Shared"] + fast).status == 0)
        #expect(try run(["push"] + fast).output.split(separator: "\n").last == "pushed 1 task (remote revision 1)")
        #expect(try run(["delete", "1"] + fast).status == 0)
        let pull = try run(["pull"] + fast)
        #expect(pull.output.split(separator: "\n").last == "pulled 1 task (remote revision 1)")
        #expect(try run(["list"] + fast).output == "1 task:\n  #1 [ ] Shared\n")
    }

    @Test func aSyncThatRunsOutOfAttemptsFails() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run([
            "push", "--data-dir", data, "--latency", "0", "--fail-rate", "1", "--attempts", "2", "--retry-delay",
            "0.05",
        ])
        #expect(result.status == 1)
        #expect(result.errors.hasPrefix("error: push failed after 2 attempts: "))
        #expect(result.output.contains("push: attempt 1 of 2 failed ("))
    }

    @Test func theDefaultDataFolderFollowsXDG() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["add", "Stored by default"]).status == 0)
        #expect(
            try StoredBoard.titles(in: folder.appendingPathComponent("xdg/taskboard").path) == ["Stored by default"]
        )
    }

    @Test func aCorruptDatabaseIsMovedAsideReportedAndNotOverwritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "half a database".write(toFile: data + "/tasks.sqlite", atomically: true, encoding: .utf8)
        let result = try run(["add", "Fresh start", "--data-dir", data])
        // The command ran, but a file was moved aside: the exit status says so, so a script stops.
        #expect(result.status == 1)
        #expect(result.output == "added #1 [ ] Fresh start\n")
        let notes = result.errors.split(separator: "\n")
        #expect(notes.count == 1)
        #expect(
            notes.first?.hasPrefix(
                "note: \(data)/tasks.sqlite is unreadable (not an SQLite database); moved it to tasks.sqlite.corrupt-"
            ) == true
        )
        #expect(notes.first?.hasSuffix(" and started with a new database") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: data)
        let corrupt = try #require(files.first { $0.hasPrefix("tasks.sqlite.corrupt-") })
        #expect(try String(contentsOfFile: data + "/" + corrupt, encoding: .utf8) == "half a database")
        #expect(try StoredBoard.titles(in: data) == ["Fresh start"])
    }

    @Test func aCorruptOldTasksFileIsMovedAsideAndNotImported() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "{ half a board".write(toFile: data + "/tasks.json", atomically: true, encoding: .utf8)
        let result = try run(["add", "Fresh start", "--data-dir", data])
        #expect(result.status == 1)
        let notes = result.errors.split(separator: "\n")
        #expect(notes.count == 1)
        #expect(notes.first?.contains("could not be decoded (not valid JSON); moved it to tasks.json.corrupt-") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: data)
        let corrupt = try #require(files.first { $0.hasPrefix("tasks.json.corrupt-") })
        #expect(try String(contentsOfFile: data + "/" + corrupt, encoding: .utf8) == "{ half a board")
        #expect(try StoredBoard.titles(in: data) == ["Fresh start"])
    }

    @Test func theFirstRunImportsAnOldTasksFileAndExportImportKeepTheJSONFormat() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = DataDirectory(url: URL(fileURLWithPath: data))
        let old = TasksSnapshot(
            nextID: 6,
            tasks: [TaskItem(id: 2, title: "From JSON", tags: ["home"]), TaskItem(id: 5, title: "Done", isDone: true)]
        )
        try directory.tasksFile.save(old)
        let first = try run(["add", "New", "--data-dir", data])
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.output == "added #6 [ ] New\n", "the old file's next number is kept")
        #expect(
            first.errors
                == "note: imported 2 tasks from \(data)/tasks.json into tasks.sqlite; the file is now tasks.json.imported\n"
        )
        #expect(!FileManager.default.fileExists(atPath: data + "/tasks.json"))
        #expect(FileManager.default.fileExists(atPath: data + "/tasks.json.imported"))

        let exported = try run(["export", "--json", "--data-dir", data])
        #expect(exported.status == 0)
        let snapshot = try JSONDecoder().decode(TasksSnapshot.self, from: Data(exported.output.utf8))
        #expect(snapshot.tasks.map(\.title) == ["From JSON", "Done", "New"])
        #expect(snapshot.nextID == 7)

        let file = folder.appendingPathComponent("board.json").path
        #expect(try run(["export", "--json", file, "--data-dir", data]).output == "exported 3 tasks to \(file)\n")
        let other = folder.appendingPathComponent("other").path
        #expect(try run(["add", "Replaced", "--data-dir", other]).status == 0)
        let imported = try run(["import", file, "--data-dir", other])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "imported 3 tasks from \(file) (the board had 1)\n")
        #expect(try StoredBoard.tasks(in: other) == snapshot.tasks)
        #expect(try run(["add", "After", "--data-dir", other]).output == "added #7 [ ] After\n")

        let bad = try run(["import", data + "/missing.json", "--data-dir", other])
        #expect(bad.status == 1)
        #expect(
            bad.errors == "error: cannot import \(data)/missing.json: it could not be read (no such file or directory) "
                + "(nothing was changed)\n"
        )
    }

    @Test func unknownCommandsAndBadArgumentsFailWithAHint() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try run(["--script", "-", "--data-dir", data], input: "add A\nlsit\nadd B\n")
        #expect(script.status != 0)
        #expect(
            script.errors == "error: stdin:2: unknown command 'lsit' (did you mean 'list'? 'help' lists the commands)\n"
        )

        let oneShot = try run(["done", "--data-dir", data])
        #expect(oneShot.status != 0)
        #expect(oneShot.errors.contains("Missing expected argument '<ids> ...'"))

        let missing = try run(["done", "42", "--data-dir", data])
        #expect(missing.status == 1)
        #expect(missing.errors == "error: there is no task #42 ('list' shows the task numbers)\n")

        let badRate = try run(["list", "--fail-rate", "2", "--data-dir", data])
        #expect(badRate.status != 0)
        #expect(badRate.errors.contains("--fail-rate takes a probability from 0 to 1"))
    }

    @Test func logLevelDebugShowsTheStoreEventsOnStandardErrorAndTheDefaultShowsNone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let quiet = try run(["add", "Milk", "--data-dir", data])
        #expect(quiet.status == 0, "\(quiet.errors)")
        #expect(quiet.errors.isEmpty)

        let debug = try run(["add", "Bread", "--data-dir", data, "--log-level", "debug"])
        #expect(debug.status == 0, "\(debug.errors)")
        #expect(debug.output == "added #2 [ ] Bread\n", "the log goes to standard error only")
        let lines = debug.errors.split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains(#"debug taskboard: [TaskBoard] root/0 received tasks.add(title: "Bread""#)
            }
        )
        #expect(lines.contains { $0.contains(#"root/0 reduced tasks.add(title: "Bread""#) })

        let blank = try run(["add", " ", "--data-dir", data, "--log-level", "info"])
        #expect(blank.status == 1)
        #expect(
            blank.errors.contains(
                #"blocked tasks.add(title: " ", tags: [], due: nil, id: nil) in middleware "validate""#
            )
        )
        #expect(blank.errors.hasSuffix("error: a task needs a title\n"))
        #expect(!blank.errors.contains("received"), "info leaves out the debug events")
    }

    @Test func withoutArgumentsAndWithoutATerminalTheDemoRunsAndExits() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run([])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("TaskBoard demo"))
        #expect(result.output.contains("pushed 4 tasks"))
        #expect(result.output.contains("failed ("))
        // The demo cancels its background push on the next line, while the 0.2 s call is in flight; a
        // process stalled longer than that between two lines finds the push over.
        #expect(
            result.output.contains("push cancelled during attempt 1 of 3")
                || result.output.contains("no sync is running")
        )
    }

    @Test func lockWaitSetsHowLongAWriteWaitsForAnotherProcesssLock() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["add", "First", "--data-dir", data]).status == 0)
        // Another process's connection, holding the write lock.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(
            path: URL(fileURLWithPath: data).appendingPathComponent("tasks.sqlite").path,
            configuration: configuration
        )
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let waited = try run(["add", "Second", "--data-dir", data, "--lock-wait", "0.2"])
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(waited.status != 0)
        #expect(waited.errors.contains("the database is locked by another process (waited 200 ms)"), "\(waited.errors)")
        #expect(waited.errors.contains("another TaskBoard holds the board"), "\(waited.errors)")
    }

    // MARK: Issue 18

    /// Row: `list` on a corrupt file moved it aside with exit status 0, so a script carried on.
    @Test func listOnACorruptFileExitsNonZero() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "{ half a board".write(toFile: data + "/tasks.json", atomically: true, encoding: .utf8)
        let result = try run(["list", "--data-dir", data])
        #expect(result.status == 1)
        #expect(result.output == "no tasks\n")
        #expect(result.errors.split(separator: "\n").count == 1)
    }

    /// Row: `--data-dir` naming a regular file said "File exists" four times.
    @Test func aDataDirThatIsAFileGetsOneClearMessage() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain").path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        for arguments in [["add", "Milk"], ["list"]] {
            let result = try run(arguments + ["--data-dir", file])
            #expect(result.status == 1)
            #expect(
                result.errors
                    == "error: \(file) is a file, not a folder; --data-dir names the folder that holds tasks.sqlite\n"
            )
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "x")
    }

    /// Row: `chmod 444 tasks.json`, then `add`, silently replaced the file. The same for the database.
    @Test func aReadOnlyDatabaseIsRespected() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["add", "Kept", "--data-dir", data]).status == 0)
        let file = data + "/tasks.sqlite"
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: file)
        let add = try run(["add", "Refused", "--data-dir", data])
        #expect(add.status == 1)
        #expect(add.output.isEmpty)
        #expect(
            add.errors == "error: cannot change the board: \(file) is read-only "
                + "(nothing was changed; make it writable, or use another --data-dir)\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        let list = try run(["list", "--data-dir", data])
        #expect(list.status == 0)
        #expect(list.output == "1 task:\n  #1 [ ] Kept\n")
    }

    /// Row: a data folder that cannot be written gave "NSCocoaErrorDomain error 512", retried for
    /// seconds, with no path.
    @Test func aFolderWithoutWritePermissionIsNamedWithTheCause() throws {
        let locked = folder.appendingPathComponent("locked").path
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked)
            try? FileManager.default.removeItem(at: folder)
        }
        let result = try run(["add", "Milk", "--data-dir", locked])
        #expect(result.status == 1)
        #expect(
            result.errors == "error: cannot change the board: cannot write in \(locked) (permission denied) "
                + "(nothing was changed; make it writable, or use another --data-dir)\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
    }

    /// A folder that cannot be written and has only an old `tasks.json`: the board shows its tasks,
    /// read-only, and nothing is created or renamed.
    @Test func aReadOnlyFolderWithAnOldTasksFileShowsItsTasks() throws {
        let old = folder.appendingPathComponent("old").path
        let directory = DataDirectory(url: URL(fileURLWithPath: old))
        try directory.tasksFile.save(TasksSnapshot(nextID: 4, tasks: [TaskItem(id: 3, title: "From JSON")]))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: old)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: old)
            try? FileManager.default.removeItem(at: folder)
        }
        let list = try run(["list", "--data-dir", old])
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output == "1 task:\n  #3 [ ] From JSON\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: old) == ["tasks.json"])
    }

    /// Row: a folder that cannot be written, whose board has no `-wal` or `-shm` file (copied, or
    /// checkpointed), could not be read at all ("fix or move the database"). `list` reads it now, creates
    /// nothing in it, and a change is refused naming the folder and the cause.
    @Test func aReadOnlyFolderWithoutTheWALFilesListsItsBoard() throws {
        let board = folder.appendingPathComponent("board").path
        #expect(try run(["add", "Kept", "--data-dir", board]).status == 0)
        let database = board + "/tasks.sqlite"
        let queue = try DatabaseQueue(path: database)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try queue.close()
        try #require(!FileManager.default.fileExists(atPath: database + "-wal"))
        try #require(!FileManager.default.fileExists(atPath: database + "-shm"))
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: board)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: board)
            try? FileManager.default.removeItem(at: folder)
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: board).sorted()
        let list = try run(["list", "--data-dir", board])
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output == "1 task:\n  #1 [ ] Kept\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: board).sorted() == before)
        let add = try run(["add", "Refused", "--data-dir", board])
        #expect(add.status == 1)
        #expect(
            add.errors == "error: cannot change the board: cannot write in \(board) (permission denied) "
                + "(nothing was changed; make it writable, or use another --data-dir)\n"
        )
        #expect(try run(["list", "--data-dir", board]).output == "1 task:\n  #1 [ ] Kept\n")
    }

    /// Row: `--data-dir ""` silently wrote in the current folder.
    @Test func anEmptyDataDirIsRejected() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try run(["add", "Milk", "--data-dir", ""])
        #expect(result.status == 64)
        #expect(
            result.errors.hasPrefix("Error: --data-dir needs a folder; an empty path would mean the current folder")
        )
    }

    /// Row: `--latency -1`, `stats --top -1` said "Missing expected argument" instead of "must not be
    /// negative" (`remind 1 -5s` is checked at the prompt's parser, in LineParserTests).
    @Test func negativeValuesAreRejectedAsNegative() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let latency = try run(["list", "--latency", "-1", "--data-dir", data])
        #expect(latency.status == 64)
        #expect(latency.errors.hasPrefix("Error: --latency must not be negative (it takes seconds), not -1\n"))
        let top = try run(["stats", "--top", "-1", "--data-dir", data])
        #expect(top.status == 64)
        #expect(top.errors.hasPrefix("Error: --top must not be negative, not -1; give a number from 1 to 50\n"))
        let script = try run(["--script", "-", "--data-dir", data], input: "add Milk\nremind 1 -5s\n")
        #expect(script.status == 1)
        #expect(script.errors.hasPrefix("error: stdin:2: the delay must not be negative, not '-5s'"))
    }

    /// Row: a title with an escape sequence or a newline was printed raw; `search 👨` highlighted nothing.
    @Test func controlCharactersAreShownEscapedAndEmojiMatchesAreHighlighted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try run(["add", "red \u{1B}[31mX\nnext", "--data-dir", data]).status == 0)
        #expect(try run(["add", "Call 👨‍👩‍👧", "--data-dir", data]).status == 0)
        let list = try run(["list", "--data-dir", data])
        #expect(list.output == "2 tasks:\n  #1 [ ] red \\e[31mX\\nnext\n  #2 [ ] Call 👨‍👩‍👧\n")
        let search = try run(["search", "👨", "--data-dir", data])
        #expect(search.output == "1 task matches \"👨\":\n  #2 [ ] Call [👨‍👩‍👧]\n")
    }

    /// `kill -TERM` during a one-shot push: the sync is cancelled, the board saved, the status 143.
    @Test func aSignalDuringAOneShotCommandSavesAndExitsWithItsStatus() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = try TaskBoardBinary.url()
        process.arguments = ["push", "--data-dir", data, "--latency", "30"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The status line says the push started: the board is open and the handlers are in place.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("pushing...") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            seen.append(chunk)
        }
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 143)
        #expect(process.terminationReason == .exit)
    }
}
