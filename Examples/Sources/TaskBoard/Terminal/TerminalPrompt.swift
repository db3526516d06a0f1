import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The prompt on a terminal: puts it in raw mode, reads keys on a thread of its own, edits the line
/// with a ``LineEditor`` and draws it through the ``Console``, so that output arriving while the user
/// types is printed above the prompt, which is then drawn again with what was typed.
///
/// Keys typed while a command runs are kept for the next prompt, except Ctrl-C, which is handed to
/// `onInterrupt` at once (to cancel a running sync). The terminal is restored by ``restore()``.
final class TerminalPrompt: Sendable {
    private struct State {
        var editor: LineEditor
        var decoder = KeyDecoder()
        /// The read in progress, if any.
        var reader: CheckedContinuation<String?, Never>?
        var prompt = ""
        var promptWidth = 0
        /// Keys typed while no read was in progress.
        var typedAhead: [Key] = []
        var inputEnded = false
        var historyFailed = false
    }

    private let console: Console
    private let history: HistoryFile?
    private let onInterrupt: @Sendable (_ lineWasEmpty: Bool) -> Void
    private let state: Mutex<State>
    /// The terminal settings before raw mode, and in raw mode.
    private let original: termios
    private let raw: termios

    private init(
        console: Console,
        history: HistoryFile?,
        savedHistory: [String],
        original: termios,
        raw: termios,
        onInterrupt: @escaping @Sendable (Bool) -> Void
    ) {
        self.raw = raw
        self.console = console
        self.history = history
        self.original = original
        self.onInterrupt = onInterrupt
        self.state = Mutex(State(editor: LineEditor(history: savedHistory)))
    }

    /// Starts editing on the terminal, or returns `nil` when standard input or output is not a terminal
    /// (the caller then reads plain lines). `history` is where lines are saved, `nil` to keep them for
    /// this session only; `savedHistory` is what ↑ starts with.
    static func start(
        console: Console,
        history: HistoryFile?,
        savedHistory: [String],
        onInterrupt: @escaping @Sendable (_ lineWasEmpty: Bool) -> Void
    ) -> TerminalPrompt? {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { return nil }
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
        var raw = original
        // No line buffering, no echo, and Ctrl-C / Ctrl-Z / Ctrl-S arrive as keys; output is unchanged
        // (OPOST stays on, so "\n" still starts a new line).
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | INLCR | BRKINT | ISTRIP)
        withUnsafeMutableBytes(of: &raw.c_cc) { controls in
            controls[Int(VMIN)] = 1
            controls[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        let prompt = TerminalPrompt(
            console: console,
            history: history,
            savedHistory: savedHistory,
            original: original,
            raw: raw,
            onInterrupt: onInterrupt
        )
        Thread.detachNewThread { prompt.readKeys() }
        return prompt
    }

    /// Puts the terminal back as it was. Safe to call more than once, and from a signal handler's queue.
    func restore() {
        var original = self.original
        tcsetattr(STDIN_FILENO, TCSANOW, &original)
    }

    /// Shows `prompt` (styled; `width` cells wide) and returns the line entered, or `nil` at the end of
    /// the input (Ctrl-D on an empty line, or the terminal closed).
    func readLine(prompt: String, width: Int) async -> String? {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                guard !state.inputEnded else {
                    continuation.resume(returning: nil)
                    return
                }
                state.reader = continuation
                state.prompt = prompt
                state.promptWidth = width
                draw(&state)
                let typedAhead = state.typedAhead
                state.typedAhead = []
                handle(typedAhead, state: &state)
            }
        }
    }

    // MARK: Keys

    private func readKeys() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            state.withLock { state in
                handle(state.decoder.keys(buffer[..<count]), state: &state)
            }
        }
        state.withLock { state in
            state.inputEnded = true
            guard let reader = state.reader else { return }
            state.reader = nil
            console.endInput()
            reader.resume(returning: nil)
        }
    }

    /// Applies `keys`, in order, under the lock: keys from the reading thread and keys typed ahead are
    /// never mixed up.
    ///
    /// The line is drawn once after the keys that change it, not after each one: a paste arrives as
    /// many keys in one read, and drawing after each would cost time quadratic in its length. It is
    /// drawn before anything that shows or leaves it (Enter, Ctrl-C, Ctrl-L, Ctrl-Z).
    private func handle(_ keys: [Key], state: inout State) {
        var changed = false
        defer { if changed { draw(&state) } }
        for (index, key) in keys.enumerated() {
            guard let reader = state.reader else {
                if key == .interrupt { onInterrupt(true) } else { state.typedAhead.append(key) }
                continue
            }
            let wasEmpty = state.editor.characters.isEmpty
            // Drawn before the key clears the line.
            let interruptedLine = key == .interrupt && !wasEmpty ? input(state, suffix: "^C") : nil
            // The line as typed stays on screen above what the key prints (Enter) or replaces it with.
            if changed, Self.leavesTheLine(key) {
                draw(&state)
                changed = false
            }
            let outcome = state.editor.handle(key)
            if outcome == .redraw {
                changed = true
                continue
            }
            switch outcome {
            case .none, .redraw:
                break
            case .clearScreen:
                console.clearScreen()
            case .suspend:
                suspend(&state)
            case .submit(let line):
                console.endInput()
                state.reader = nil
                saveHistory(line, state: &state)
                // The keys after Enter belong to the next prompt.
                state.typedAhead = Array(keys[(index + 1)...]) + state.typedAhead
                reader.resume(returning: line)
                return
            case .endOfInput:
                console.endInput()
                state.reader = nil
                reader.resume(returning: nil)
                return
            case .interrupt:
                // Like a shell: the line stays on screen with ^C after it, and a new prompt starts.
                if let interruptedLine {
                    console.showInput(interruptedLine)
                    console.endInput()
                }
                draw(&state)
                onInterrupt(wasEmpty)
            }
        }
    }

    /// Whether `key` may end the line or print past it, so that the line must be on screen as typed
    /// before the key is handled.
    private static func leavesTheLine(_ key: Key) -> Bool {
        [.enter, .interrupt, .endOfInput, .clearScreen, .suspend].contains(key)
    }

    /// Ctrl-Z: gives the terminal back as it was, stops the process (the shell says "Stopped"), and when
    /// the shell continues it (`fg`), takes raw mode again and draws the line. The stop happens inside
    /// ``ThreadSignal/raiseHere(_:)``, so raw mode is taken back only after `fg`.
    private func suspend(_ state: inout State) {
        console.endInput()
        restore()
        ThreadSignal.raiseHere(SIGTSTP)
        var raw = self.raw
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        draw(&state)
    }

    private func saveHistory(_ line: String, state: inout State) {
        guard let history, !line.allSatisfy(\.isWhitespace), !state.historyFailed else { return }
        do {
            try history.append(line)
        } catch {
            state.historyFailed = true
            console.notice(
                "cannot save the prompt history to \(history.url.path) (\(ErrorText.describe(error))); "
                    + "it is kept for this session only"
            )
        }
    }

    private func draw(_ state: inout State) {
        console.showInput(input(state))
    }

    private func input(_ state: State, suffix: String = "") -> Console.InputLine {
        let shown = state.editor.visible(columns: Self.columns(), promptWidth: state.promptWidth)
        return Console.InputLine(
            prompt: state.prompt,
            text: shown.text + suffix,
            cursorFromEnd: suffix.isEmpty ? shown.cursorFromEnd : 0
        )
    }

    /// The terminal's width in cells (80 when it cannot be asked).
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
