import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where TaskBoard writes: lines to standard output, errors to standard error, and one status line that
/// long operations rewrite in place.
///
/// On a terminal the status line is redrawn with a carriage return; elsewhere (a pipe, a CI log, a test)
/// each new status is printed on its own line, once, so logs stay readable.
final class Console: Sendable {
    enum Stream: Sendable {
        case output
        case error
    }

    /// Whether standard output is a terminal (the status line is then redrawn in place).
    let isTerminal: Bool
    let theme: Theme
    private let write: @Sendable (Stream, String) -> Void
    // The status line on screen (terminal) or the last one printed (elsewhere).
    private let status = Mutex<String?>(nil)

    init(isTerminal: Bool, theme: Theme, write: @escaping @Sendable (Stream, String) -> Void) {
        self.isTerminal = isTerminal
        self.theme = theme
        self.write = write
    }

    /// The console of the process: colors when standard output is a terminal and `NO_COLOR` is unset.
    static func standard() -> Console {
        let terminal = isatty(STDOUT_FILENO) == 1
        let colors = terminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        return Console(isTerminal: terminal, theme: Theme(colors: colors)) { stream, text in
            let handle = stream == .output ? FileHandle.standardOutput : FileHandle.standardError
            handle.write(Data(text.utf8))
        }
    }

    /// Prints a line, after finishing the status line if one is showing.
    func line(_ text: String = "") {
        endStatus()
        write(.output, text + "\n")
    }

    /// Prints lines.
    func lines(_ texts: [String]) {
        for text in texts { line(text) }
    }

    /// Writes a prompt and leaves the cursor after it.
    func prompt(_ text: String) {
        endStatus()
        write(.output, text)
    }

    /// Prints a one-line error on standard error.
    func error(_ text: String) {
        endStatus()
        write(.error, theme.error("error: ") + text + "\n")
    }

    /// Prints a one-line notice on standard error: something the user should know that is not an error.
    func notice(_ text: String) {
        endStatus()
        write(.error, theme.warning("note: ") + text + "\n")
    }

    /// Shows `text` on the status line, replacing what was there.
    func showStatus(_ text: String) {
        let changed = status.withLock { current in
            guard current != text else { return false }
            current = text
            return true
        }
        guard changed else { return }
        write(.output, isTerminal ? "\r\u{1B}[2K" + text : text + "\n")
    }

    /// Replaces the status line with `text` and moves on to a new line.
    func finishStatus(with text: String) {
        let showing = status.withLock { current in
            defer { current = nil }
            return current != nil
        }
        write(.output, (showing && isTerminal ? "\r\u{1B}[2K" : "") + text + "\n")
    }

    /// Leaves the status line as it is and moves on to a new line.
    func endStatus() {
        let showing = status.withLock { current in
            defer { current = nil }
            return current != nil
        }
        if showing, isTerminal { write(.output, "\n") }
    }
}
