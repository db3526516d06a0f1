import Foundation
import Testing

@testable import TaskBoard

/// `--record` and `taskboard replay`, run through the built binary: a scripted session is recorded, and
/// replaying its log rebuilds the same board, byte for byte.
@Suite(.timeLimit(.minutes(1))) struct ActionLogReplayTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("tmp"),
            withIntermediateDirectories: true
        )
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs `taskboard` with `arguments` and `input` on standard input; returns status, output, errors.
    private func taskboard(_ arguments: [String], input: String = "") throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = try TaskBoardBinary.url()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["XDG_DATA_HOME"] = path("xdg")
        // The run's temporary folder is the test's own, so that what the run leaves there can be seen.
        environment["TMPDIR"] = path("tmp")
        process.environment = environment
        let (output, errors, stdin) = (Pipe(), Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// Records a session that adds, completes, tags, searches (an effect with a debounce) and pushes
    /// (an effect with latency), on a board that already held a task.
    private func recordSession() throws -> (list: String, tasks: [TaskItem]) {
        let board = ["--data-dir", path("data"), "--today", "2025-03-14", "--latency", "0.02"]
        #expect(try taskboard(["add", "Existing", "--tag", "old"] + board).0 == 0)
        let script = """
            add Buy milk --tag home --due 2025-03-14
            add Write report --tag work --due 2025-03-10
            done 1
            tag 3 urgent
            edit 2 Buy oat milk
            search milk
            push
            delete 1

            """
        let (status, _, errors) = try taskboard(
            ["--script", "-", "--record", path("session.log")] + board,
            input: script
        )
        #expect(status == 0, "\(errors)")
        let (listed, list, _) = try taskboard(["list"] + board)
        #expect(listed == 0)
        #expect(list.hasPrefix("2 tasks:\n"))
        return (list, try StoredBoard.tasks(in: path("data")))
    }

    @Test func replayingARecordedScriptRebuildsTheSameBoard() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = try recordSession()

        let (status, output, errors) = try taskboard(["replay", path("session.log"), "--into", path("replayed")])
        #expect(status == 0, "\(errors)")
        #expect(output == recorded.list)
        #expect(try StoredBoard.tasks(in: path("replayed")) == recorded.tasks)
        #expect(errors.contains("replayed "))
    }

    @Test func aLogCutShortIsReportedAndTheLinesBeforeItReplay() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try recordSession()
        let log = try Data(contentsOf: URL(fileURLWithPath: path("session.log")))
        let lines = log.split(separator: UInt8(ascii: "\n"))
        try (log.dropLast(5)).write(to: URL(fileURLWithPath: path("cut.log")))

        let (status, output, errors) = try taskboard(["replay", path("cut.log")])
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("cut.log: line \(lines.count): the line is cut short"))
        #expect(output.contains("Buy oat milk"))  // the lines before it were replayed
    }

    @Test func aLogThatNoLongerDecodesFailsNamingTheLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        {"app":"taskboard actions 2","canopyActionLog":1}
        {"action":{"setToday":{"_0":"2025-03-14"}},"store":"root","time":1}
        {"action":{"tasks":{"_0":{"archive":{"id":1}}}},"store":"root/0","time":2}

        """.write(toFile: path("old.log"), atomically: true, encoding: .utf8)
        let (status, output, errors) = try taskboard(["replay", path("old.log")])
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(errors.hasPrefix("error: \(path("old.log")): line 3: the action does not decode"))

        try """
        {"app":"taskboard actions 2","canopyActionLog":1}
        {"action":{"setToday":{"_0":"2025-03-14"}},"store":"root/7","time":1}

        """.write(toFile: path("moved.log"), atomically: true, encoding: .utf8)
        let moved = try taskboard(["replay", path("moved.log")])
        #expect(moved.0 == 1)
        #expect(moved.2.contains("line 2: the action was sent to store root/7, which the replayed tree does not have"))
    }

    @Test func aReplayWithoutIntoLeavesNothingInTheTemporaryFolder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try recordSession()
        let (status, output, errors) = try taskboard(["replay", path("session.log")])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("Buy oat milk"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path("tmp")).isEmpty)
    }

    @Test func aMissingLogIsReportedWithItsPathAndCause() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, errors) = try taskboard(["replay", path("missing.log")])
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(errors == "error: cannot read the action log \(path("missing.log")) (no such file or directory)\n")
    }

    @Test func aTaskIDOutOfRangeInALogIsRefusedNamingTheLineAndTheLimit() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        {"app":"taskboard actions 2","canopyActionLog":1}
        {"action":{"setToday":{"_0":"2025-03-14"}},"store":"root","time":1}
        {"action":{"tasks":{"_0":{"add":{"title":"x","tags":[],"id":9223372036854775807}}}},"store":"root/0","time":2}

        """.write(toFile: path("huge.log"), atomically: true, encoding: .utf8)
        let (status, output, errors) = try taskboard(["replay", path("huge.log")])
        #expect(status == 1)
        #expect(output.isEmpty)
        #expect(
            errors.contains(
                "huge.log: line 3: task id 9223372036854775807 is not a number from 1 to 999999999 "
                    + "(nothing was replayed)"
            ),
            "\(errors)"
        )
    }
}
