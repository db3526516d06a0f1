import Foundation
import Testing

@testable import TaskBoard

/// Two `taskboard` processes on one data folder: a session that stays open (commands over a pipe) while
/// one-shot runs change the board. The runs take turns explicitly: a one-shot run has exited before the
/// open session gets its next command, and the open session has finished a command before the next
/// one-shot run starts, so what each must see is fixed, with no waiting on the clock.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TwoSessionsTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var data: String { folder.appendingPathComponent("data").path }

    private func process(_ arguments: [String]) throws -> TaskBoardProcess {
        try TaskBoardProcess.start(arguments + ["--data-dir", data, "--latency", "0", "--lock-wait", "60"])
    }

    /// Runs one command in a process of its own, to its end: (status, output, errors).
    private func oneShot(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
        let run = try process(arguments)
        try run.input.fileHandleForWriting.close()
        let out = run.output.fileHandleForReading.readDataToEndOfFile()
        let err = run.errors.fileHandleForReading.readDataToEndOfFile()
        run.process.waitUntilExit()
        return (
            run.process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self)
        )
    }

    @Test func anOpenPromptSeesAnotherSessionsChangesAndNeverUndoesThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try oneShot("add", "One").status == 0)
        #expect(try oneShot("add", "Two").status == 0)
        #expect(try oneShot("add", "Three").status == 0)

        let prompt = try OpenSession(process(["--script", "-", "--echo"]))
        defer { prompt.end() }
        #expect(prompt.run("list") == "3 tasks:\n  #1 [ ] One\n  #2 [ ] Two\n  #3 [ ] Three\n")

        // Another session adds #4, completes #1, renames #2 and deletes #3 while this one is open: its
        // next command looks at the database first.
        #expect(try oneShot("add", "Four").output == "added #4 [ ] Four\n")
        #expect(try oneShot("done", "1").status == 0)
        #expect(try oneShot("rename", "2", "Two renamed").status == 0)
        #expect(try oneShot("delete", "3").status == 0)
        #expect(prompt.run("list") == "3 tasks:\n  #1 [x] One\n  #2 [ ] Two renamed\n  #4 [ ] Four\n")

        // The prompt's edits keep the other session's.
        #expect(prompt.run("tag 2 home") == "tagged #2 [ ] Two renamed #home\n")
        #expect(try oneShot("list").output == "3 tasks:\n  #1 [x] One\n  #2 [ ] Two renamed #home\n  #4 [ ] Four\n")

        // The prompt's push carries the task another session added; a pull elsewhere keeps it.
        #expect(try oneShot("add", "Five").status == 0)
        #expect(prompt.run("push").hasSuffix("pushed 4 tasks (remote revision 1)\n"))
        #expect(try oneShot("pull").output.hasSuffix("pulled 4 tasks (remote revision 1)\n"))
        #expect(
            try oneShot("list").output
                == "4 tasks:\n  #1 [x] One\n  #2 [ ] Two renamed #home\n  #4 [ ] Four\n  #5 [ ] Five\n"
        )

        // A pull at the prompt neither brings back what another session deleted since, nor deletes
        // what it added.
        #expect(try oneShot("delete", "5").status == 0)
        #expect(try oneShot("add", "Six").output == "added #6 [ ] Six\n")
        _ = prompt.run("pull")
        #expect(
            try oneShot("list").output
                == "4 tasks:\n  #1 [x] One\n  #2 [ ] Two renamed #home\n  #4 [ ] Four\n  #6 [ ] Six\n"
        )

        // Editing a task deleted elsewhere says so, and does not bring it back; in a script, that error
        // ends the run.
        #expect(try oneShot("delete", "4").status == 0)
        _ = prompt.run("done 4")
        prompt.end()
        #expect(prompt.status == 1)
        #expect(prompt.errors.contains("task #4 was deleted by another session (nothing was changed)\n"))
        #expect(try oneShot("list").output == "3 tasks:\n  #1 [x] One\n  #2 [ ] Two renamed #home\n  #6 [ ] Six\n")
    }
}

/// A `taskboard` session that stays open, reading commands from a pipe (`--script - --echo`; the
/// interactive prompt needs a terminal). ``run(_:)`` sends a command and then `status`, whose last line
/// is printed once the command and the status' own look at the database are done: it returns what the
/// command printed. Every wait ends when the process does.
private final class OpenSession {
    private let process: Process
    private let output: FileHandle
    private let errorsHandle: FileHandle
    private let input: FileHandle
    private var buffer = ""
    private var ended = false

    init(_ run: TaskBoardProcess) {
        process = run.process
        output = run.output.fileHandleForReading
        errorsHandle = run.errors.fileHandleForReading
        input = run.input.fileHandleForWriting
    }

    /// What the session printed for `command`; what it printed up to its end if it ended.
    func run(_ command: String) -> String {
        input.write(Data("\(command)\nstatus\n".utf8))
        let echo = "$ \(command)\n"
        let sentinel = "$ status\n"
        while true {
            if let begin = buffer.range(of: echo),
                let end = buffer.range(of: sentinel, range: begin.upperBound..<buffer.endIndex),
                let last = buffer.range(
                    of: "actions reduced by the root so far: ",
                    range: end.upperBound..<buffer.endIndex
                ),
                let newline = buffer[last.upperBound...].firstIndex(of: "\n")
            {
                let text = String(buffer[begin.upperBound..<end.lowerBound])
                buffer.removeSubrange(..<buffer.index(after: newline))
                return text
            }
            let chunk = output.availableData
            guard !chunk.isEmpty else {
                defer { buffer = "" }
                return buffer
            }
            buffer += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Standard error, once the process ended (``end()``).
    private(set) var errors = ""

    var status: Int32 { process.terminationStatus }

    /// Closes the input, which ends the session, and waits for the process.
    func end() {
        guard !ended else { return }
        ended = true
        try? input.close()
        _ = output.readDataToEndOfFile()
        errors = String(decoding: errorsHandle.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
    }
}
