import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The prompt as a person meets it: the built `taskboard` in a real terminal (tmux), driven by keys.
/// Each test reproduces a row of issue 18's table.
@Suite(
    .enabled(
        if: TmuxTerminal.isAvailable,
        "tmux is not installed: the prompt tests need a terminal (apt-get install tmux)"
    )
)
struct PromptTests {
    private let folder: URL
    private var data: String { folder.appendingPathComponent("data").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-pty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func open(_ extra: [String] = []) throws -> TmuxTerminal {
        let terminal = try TmuxTerminal(
            arguments: ["--data-dir", data, "--latency", "0.05"] + extra,
            environment: ["XDG_DATA_HOME": folder.appendingPathComponent("xdg").path]
        )
        try terminal.waitForScreen("the prompt") { $0.last == "taskboard>" }
        return terminal
    }

    private func savedTitles() throws -> [String] {
        try StoredBoard.titles(in: data)
    }

    /// Row: arrow keys, Ctrl-L and ↑ garbled the line (`unknown command 'list^[[D^[['`).
    @Test func arrowKeysBackspaceCtrlLAndUpEditTheLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.enter("add Buy milk")
        try terminal.waitForLine("added #1 [ ] Buy milk")
        try terminal.type("lsit")
        try terminal.press("Left", "Left", "BSpace", "Right")
        try terminal.type("s")
        try terminal.waitForLine("taskboard> list")
        try terminal.press("C-l")
        try terminal.waitForScreen("a cleared screen") { $0 == ["taskboard> list"] }
        try terminal.press("Enter")
        try terminal.waitForLine("  #1 [ ] Buy milk")
        try terminal.press("Up", "Up")
        try terminal.waitForScreen("the first command again") { $0.last == "taskboard> add Buy milk" }
        try terminal.press("Down", "C-a", "End")
        try terminal.enter(" --open")
        let screen = try terminal.waitForLine("1 open task:")
        #expect(!screen.joined().contains("^["))
        #expect(!screen.joined().contains("unknown command"))
    }

    /// A line that arrives with its Enter in one read (a paste) stays on screen as it was typed: the
    /// line is drawn once per read, and must be drawn before Enter empties it.
    @Test func aLinePastedWithItsEnterStaysOnScreen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.type("add Pasted\rlist\r")
        let screen = try terminal.waitForLine("  #1 [ ] Pasted")
        #expect(screen.contains("taskboard> add Pasted"))
        #expect(screen.contains("taskboard> list"))
    }

    /// Issue 33: after Ctrl-Z and `fg`, the prompt was not drawn again and the terminal stayed in line
    /// mode (← printed `^[[D`), in most fresh runs.
    @Test func ctrlZThenFgDrawsThePromptAgainAndKeysStillEditTheLine() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try TmuxTerminal(
            arguments: ["--data-dir", data],
            environment: ["XDG_DATA_HOME": folder.appendingPathComponent("xdg").path],
            jobControl: true
        )
        try terminal.waitForScreen("the prompt") { $0.last == "taskboard>" }
        try terminal.type("add milk")
        try terminal.waitForScreen("the typed line") { $0.last == "taskboard> add milk" }
        try terminal.press("C-z")
        try terminal.waitForScreen("the shell's prompt after the stop") { $0.last == "$" }
        try terminal.enter("fg")
        try terminal.waitForScreen("the prompt drawn again") { $0.last == "taskboard> add milk" }
        try terminal.press("Left", "Left", "Left", "Left")
        try terminal.type("X")
        try terminal.waitForScreen("the edited line") { $0.last == "taskboard> add Xmilk" }
        try terminal.press("Enter")
        let screen = try terminal.waitForLine("added #1 [ ] Xmilk")
        #expect(!screen.joined().contains("^["))
        try terminal.enter("quit")
    }

    /// Row: `add partial task`, then Ctrl-D twice ran the half-typed command.
    @Test func ctrlDOnALineWithTextNeverRunsIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.type("add partial task")
        try terminal.press("C-d", "C-d", "C-a", "C-d")
        try terminal.waitForScreen("the first letter deleted") { $0.last == "taskboard> dd partial task" }
        try terminal.press("C-k")
        try terminal.enter("list")
        try terminal.waitForLine("no tasks")
        // Ctrl-C drops a line as a shell does: it stays on screen with ^C, and is not run either.
        try terminal.type("add dropped")
        try terminal.press("C-c")
        try terminal.waitForScreen("the dropped line and a new prompt") {
            $0.suffix(2) == ["taskboard> add dropped^C", "taskboard>"]
        }
        try terminal.press("C-d")
        let status = try terminal.exitStatus()
        #expect(status == 0)
        #expect(try StoredBoard.tasks(in: data).isEmpty)
    }

    /// Row: `kill -HUP` / `-TERM` within ~50 ms of `add` printed "added" for a change never saved.
    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalRightAfterAddSavesItAndExitsWithTheSignalsStatus(signal: Int32) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.enter("add Saved before the signal")
        try terminal.waitForLine("added #1 [ ] Saved before the signal")
        // "added" is printed only once the change is on disk.
        #expect(try savedTitles() == ["Saved before the signal"])
        try terminal.enter("remind 1 1h")
        try terminal.waitForLine("will remind you of #1 in 60m")
        kill(try terminal.pid(), signal)
        let status = try terminal.exitStatus()
        #expect(status == 128 + signal)
        #expect(try savedTitles() == ["Saved before the signal"])
    }

    /// Row: a reminder was printed onto the prompt line, and the prompt was not redrawn.
    @Test func aReminderIsPrintedAboveThePromptWhichKeepsWhatWasTyped() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.enter("add Call the bank")
        try terminal.enter("remind 1 0.3s")
        try terminal.waitForLine("will remind you of #1 in 0.3s")
        try terminal.type("list --op")
        let screen = try terminal.waitForScreen("the reminder above the prompt") {
            $0.suffix(2) == ["reminder: #1 [ ] Call the bank", "taskboard> list --op"]
        }
        // One prompt per command, none glued to the reminder.
        #expect(screen.filter { $0.contains("taskboard>") }.count == 3)
        try terminal.enter("en")
        try terminal.waitForLine("1 open task:")
    }

    /// Row: `push --background` finished without a word; `wait` then said "no sync is running".
    @Test func aBackgroundPushReportsItsEndAndWaitSaysWhatHappened() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.enter("add Shared")
        try terminal.enter("push --background")
        try terminal.waitForLine("background push finished: pushed 1 task (remote revision 1)")
        try terminal.enter("wait")
        try terminal.waitForLine("no sync is running; the last one ended: pushed 1 task (remote revision 1)")
    }

    /// The history is kept in the data folder: ↑ in the next session finds the last command.
    @Test func theHistoryOutlivesTheSession() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let first = try open()
            try first.enter("list --done")
            try first.waitForLine("no done tasks")
            try first.enter("quit")
            let status = try first.exitStatus()
            #expect(status == 0)
        }
        let second = try open()
        try second.press("Up")
        try second.waitForScreen("the last command of the last session") { $0.last == "taskboard> quit" }
        try second.press("Up")
        try second.waitForScreen("the command before it") { $0.last == "taskboard> list --done" }
    }

    /// Row: `add it's mine` said "a ' quote is not closed".
    @Test func anApostropheInAnUnquotedWordIsText() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let terminal = try open()
        try terminal.enter("add it's mine")
        try terminal.waitForLine("added #1 [ ] it's mine")
    }
}
