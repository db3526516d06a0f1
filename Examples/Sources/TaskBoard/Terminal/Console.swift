import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where TaskBoard writes: lines to standard output, errors to standard error, one status line that
/// long operations rewrite in place, and the line being typed at the prompt.
///
/// On a terminal the status line is redrawn with a carriage return; elsewhere (a pipe, a CI log, a test)
/// each new status is printed on its own line, once, so logs stay readable.
///
/// While the prompt is waiting for input (``showInput(_:)``), anything printed (a reminder, the end of
/// a background sync) goes above it: the input line is cleared, the text printed, and the prompt drawn
/// again with what was typed. Every write happens under one lock, so they never interleave.
final class Console: Sendable {
    enum Stream: Sendable {
        case output
        case error
    }

    /// What the prompt shows: the styled prompt, the visible part of what is typed, and where the cursor
    /// is, in cells from the end of `text`.
    struct InputLine: Equatable, Sendable {
        var prompt: String
        var text: String
        var cursorFromEnd: Int
    }

    private struct Screen {
        // The status line on screen (terminal) or the last one printed (elsewhere).
        var status: String?
        var input: InputLine?
    }

    /// Whether standard output is a terminal (the status line is then redrawn in place).
    let isTerminal: Bool
    let theme: Theme
    private let write: @Sendable (Stream, String) -> Void
    private let screen = Mutex(Screen())

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
            writeAll(stream == .output ? STDOUT_FILENO : STDERR_FILENO, text)
        }
    }

    /// Prints a line, after finishing the status line if one is showing.
    func line(_ text: String = "") {
        print(.output, text + "\n")
    }

    /// Prints lines.
    func lines(_ texts: [String]) {
        for text in texts { line(text) }
    }

    /// Writes a prompt and leaves the cursor after it (for input that is not edited in place).
    func prompt(_ text: String) {
        print(.output, text)
    }

    /// Prints a one-line error on standard error; control characters in `text` are escaped.
    func error(_ text: String) {
        print(.error, theme.error("error: ") + TerminalText.escaped(text) + "\n")
    }

    /// Prints a one-line notice on standard error: something the user should know that is not an error.
    func notice(_ text: String) {
        print(.error, theme.warning("note: ") + TerminalText.escaped(text) + "\n")
    }

    /// Shows `text` on the status line, replacing what was there.
    func showStatus(_ text: String) {
        screen.withLock { screen in
            guard screen.status != text else { return }
            screen.status = text
            write(.output, isTerminal ? "\r\u{1B}[2K" + text : text + "\n")
        }
    }

    /// Replaces the status line with `text` and moves on to a new line.
    func finishStatus(with text: String) {
        screen.withLock { screen in
            let showing = screen.status != nil
            screen.status = nil
            write(.output, (showing && isTerminal ? "\r\u{1B}[2K" : "") + text + "\n")
        }
    }

    /// Leaves the status line as it is and moves on to a new line.
    func endStatus() {
        screen.withLock { endStatus(&$0) }
    }

    // MARK: The input line

    /// Draws the prompt and what is typed, replacing the input line on screen; later output goes above
    /// it until ``endInput()``.
    func showInput(_ input: InputLine) {
        screen.withLock { screen in
            endStatus(&screen)
            screen.input = input
            write(.output, Self.drawing(input))
        }
    }

    /// Leaves the input line on screen as typed and moves on to a new line.
    func endInput() {
        screen.withLock { screen in
            guard screen.input != nil else { return }
            screen.input = nil
            write(.output, "\n")
        }
    }

    /// Clears the terminal and draws the input line again at the top.
    func clearScreen() {
        screen.withLock { screen in
            write(.output, "\u{1B}[H\u{1B}[2J" + (screen.input.map(Self.drawing) ?? ""))
        }
    }

    // MARK: Writing

    private func print(_ stream: Stream, _ text: String) {
        screen.withLock { screen in
            endStatus(&screen)
            guard let input = screen.input else {
                write(stream, text)
                return
            }
            write(.output, "\r\u{1B}[2K")
            write(stream, text.hasSuffix("\n") ? text : text + "\n")
            write(.output, Self.drawing(input))
        }
    }

    private func endStatus(_ screen: inout Screen) {
        let showing = screen.status != nil
        screen.status = nil
        if showing, isTerminal { write(.output, "\n") }
    }

    /// The bytes that draw `input` on the current line: clear it, write it, put the cursor back.
    private static func drawing(_ input: InputLine) -> String {
        let back = input.cursorFromEnd > 0 ? "\u{1B}[\(input.cursorFromEnd)D" : ""
        return "\r\u{1B}[2K" + input.prompt + input.text + back
    }
}

/// Writes all of `text` to `descriptor` with `write(2)`, giving up silently on an error: unlike
/// `FileHandle.write`, which traps when the terminal has gone away (after a hangup), when the board
/// must still be saved.
private func writeAll(_ descriptor: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written > 0 {
            bytes = bytes.dropFirst(written)
        } else if !(written < 0 && errno == EINTR) {
            return
        }
    }
}
