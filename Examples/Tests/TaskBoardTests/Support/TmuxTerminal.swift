import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A real terminal for the prompt tests: `taskboard` runs in a tmux pane of its own tmux server; keys
/// are sent with `send-keys` and the screen is read with `capture-pane`.
///
/// Every wait is on screen content (or the pane's end), polled with a bound: a bug fails the test with
/// the screen in the message instead of hanging the run. The pane stays after the program ends, so its
/// last screen can be read.
final class TmuxTerminal {
    /// The tmux executable, if there is one.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
        return folders.map { $0 + "/tmux" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { executable != nil }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    private let tmux: String
    private let socket: String
    private let configuration: URL
    private let pidFile: URL
    private let statusFile: URL
    /// How long any wait may take before the test fails.
    private let bound: TimeInterval

    /// 15 seconds, unless `CANOPY_WAIT_BOUND_SECONDS` names another positive number of seconds: CI raises
    /// every test's safety-net bound to 60, for a machine whose cores are busy with other work.
    static let defaultBound: TimeInterval = {
        guard let text = ProcessInfo.processInfo.environment["CANOPY_WAIT_BOUND_SECONDS"] else { return 15 }
        guard let seconds = Int(text), seconds > 0 else {
            preconditionFailure("CANOPY_WAIT_BOUND_SECONDS must be a positive number of seconds, not \"\(text)\"")
        }
        return TimeInterval(seconds)
    }()

    /// Starts `taskboard arguments` in a 100×30 terminal, with `environment` added to the process's.
    ///
    /// With `jobControl`, the program runs as a job of an interactive bash, as when a person starts it:
    /// Ctrl-Z stops it (a program started straight under `sh -c` is in an orphaned process group, where
    /// the kernel drops Ctrl-Z's SIGTSTP), the shell takes the terminal back, and `fg` continues it.
    init(
        arguments: [String],
        environment: [String: String] = [:],
        jobControl: Bool = false,
        bound: TimeInterval = TmuxTerminal.defaultBound
    ) throws {
        guard let tmux = Self.executable else { throw Timeout(description: "tmux is not installed") }
        self.tmux = tmux
        self.bound = bound
        socket = "taskboard-test-\(UUID().uuidString)"
        let binary = try TaskBoardBinary.url().path
        let settings = environment.map { "\($0.key)=\(Self.quoted($0.value))" }.sorted().joined(separator: " ")
        let files = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        pidFile = files.appendingPathExtension("pid")
        statusFile = files.appendingPathExtension("status")
        // The program runs under a shell that writes its exit status to a file: tmux sometimes misses the
        // end of the pane's process (it stays a zombie), so its own `pane_dead_status` cannot be relied on.
        let program = "exec env \(settings) \(([binary] + arguments).map(Self.quoted).joined(separator: " "))"
        let inner = "echo $$ > \(Self.quoted(pidFile.path)); \(program)"
        let command = "sh -c \(Self.quoted(inner)); echo $? > \(Self.quoted(statusFile.path))"
        // A configuration of our own, not the user's: keep the pane when the program ends, so that the
        // screen can still be read.
        configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
        try "set -g remain-on-exit on\n".write(to: configuration, atomically: true, encoding: .utf8)
        guard jobControl else {
            try run(["-f", configuration.path, "new-session", "-d", "-s", "board", "-x", "100", "-y", "30", command])
            return
        }
        let shell = "env PS1='$ ' bash --norc --noprofile -i"
        try run(["-f", configuration.path, "new-session", "-d", "-s", "board", "-x", "100", "-y", "30", shell])
        try waitForScreen("the shell's prompt") { $0.last == "$" }
        try enter(command)
    }

    deinit {
        _ = try? run(["kill-server"])
        for file in [configuration, pidFile, statusFile] { try? FileManager.default.removeItem(at: file) }
    }

    /// Types `text` as it is.
    func type(_ text: String) throws {
        try run(["send-keys", "-t", "board", "-l", text])
    }

    /// Types `line` and presses Enter.
    func enter(_ line: String) throws {
        try type(line)
        try press("Enter")
    }

    /// Presses keys by their tmux names: `Enter`, `Left`, `BSpace`, `C-d`, `Up`.
    func press(_ keys: String...) throws {
        try run(["send-keys", "-t", "board"] + keys)
    }

    /// What the terminal shows, one string per line, trailing blanks dropped.
    func screen() throws -> [String] {
        let text = try run(["capture-pane", "-p", "-t", "board"])
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Waits until the screen satisfies `condition`; returns the screen.
    @discardableResult
    func waitForScreen(
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        until condition: ([String]) -> Bool
    ) throws -> [String] {
        let deadline = Date().addingTimeInterval(bound)
        var lines = try screen()
        while !condition(lines) {
            guard Date() < deadline else {
                Issue.record(
                    "timed out waiting for \(what); the screen:\n\(lines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation
                )
                throw Timeout(description: "timed out waiting for \(what)")
            }
            usleep(10_000)  // allowed: polls tmux, another process with no signal to wait on; bounded
            lines = try screen()
        }
        return lines
    }

    /// Waits until a line of the screen is `line`.
    @discardableResult
    func waitForLine(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try waitForScreen("the line '\(line)'", sourceLocation: sourceLocation) { $0.contains(line) }
    }

    /// The process id of the program.
    func pid() throws -> pid_t {
        pid_t(try waitForFile(pidFile, what: "the program to start")) ?? 0
    }

    /// Waits for the program to end; returns its exit status (128 + n after signal n, as a shell says).
    func exitStatus() throws -> Int32 {
        Int32(try waitForFile(statusFile, what: "the program to end")) ?? -1
    }

    /// The first line of `file`, once a whole line is there.
    private func waitForFile(_ file: URL, what: String) throws -> String {
        let deadline = Date().addingTimeInterval(bound)
        while true {
            if let text = try? String(contentsOf: file, encoding: .utf8), text.hasSuffix("\n") {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard Date() < deadline else {
                Issue.record("timed out waiting for \(what); the screen:\n\(try screen().joined(separator: "\n"))")
                throw Timeout(description: "timed out waiting for \(what)")
            }
            usleep(10_000)  // allowed: polls tmux, another process with no signal to wait on; bounded
        }
    }

    /// Runs tmux and returns what it printed.
    ///
    /// With `posix_spawn` and `waitpid` rather than `Process`: `Process` learns that a child ended when a
    /// socket it hands down is closed, and the server that `new-session` starts keeps that socket open,
    /// so `waitUntilExit()` would never return.
    @discardableResult
    private func run(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The test process blocks or ignores some signals; the tmux server must not inherit that, or it
        // never hears that the program ended (SIGCHLD).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([tmux, "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, tmux, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
