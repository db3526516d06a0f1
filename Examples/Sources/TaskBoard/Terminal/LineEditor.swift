/// The line being typed at the prompt, as a value: what each key does to the text, the cursor and the
/// history. ``TerminalPrompt`` feeds it keys and draws what it says; tests feed it keys directly.
///
/// Keys work as in a shell: ← → Home End (and Ctrl-A/E/B/F), Alt-←/→ by words, Backspace and Delete,
/// Ctrl-U/K/W to cut, ↑ ↓ through the history (what was being typed comes back after the newest entry).
/// Ctrl-D ends the input only on an empty line; on a line with text it deletes the character under the
/// cursor, and it never runs the line.
struct LineEditor: Equatable, Sendable {
    /// What the prompt should do after a key.
    enum Outcome: Equatable, Sendable {
        /// Draw the line again.
        case redraw
        /// Nothing changed (a key at the edge, or one that does nothing): ring no bell, draw nothing.
        case none
        /// Enter: run this line; the editor is empty again.
        case submit(String)
        /// Ctrl-D on an empty line.
        case endOfInput
        /// Ctrl-C: the line was dropped.
        case interrupt
        case clearScreen
        /// Ctrl-Z: stop the process until the shell continues it.
        case suspend
    }

    private(set) var characters: [Character] = []
    /// Where the cursor is, in characters from the start.
    private(set) var cursor = 0
    /// Earlier lines, oldest first.
    private(set) var history: [String]
    /// The history entry shown, while ↑ and ↓ browse it.
    private var browsing: Int?
    /// What was typed before browsing started.
    private var draft: [Character] = []
    let historyLimit: Int

    init(history: [String] = [], historyLimit: Int = 500) {
        self.history = Array(history.suffix(historyLimit))
        self.historyLimit = historyLimit
    }

    var text: String { String(characters) }

    mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .text(let character):
            insert(character)
        case .enter:
            let line = text
            remember(line)
            characters = []
            cursor = 0
            browsing = nil
            return .submit(line)
        case .backspace:
            guard cursor > 0 else { return .none }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete:
            guard cursor < characters.count else { return .none }
            characters.remove(at: cursor)
        case .endOfInput:
            guard characters.isEmpty else { return handle(.delete) }
            return .endOfInput
        case .interrupt:
            characters = []
            cursor = 0
            browsing = nil
            return .interrupt
        case .left:
            guard cursor > 0 else { return .none }
            cursor -= 1
        case .right:
            guard cursor < characters.count else { return .none }
            cursor += 1
        case .home:
            cursor = 0
        case .end:
            cursor = characters.count
        case .wordLeft:
            cursor = wordStart(before: cursor)
        case .wordRight:
            while cursor < characters.count, characters[cursor].isWhitespace { cursor += 1 }
            while cursor < characters.count, !characters[cursor].isWhitespace { cursor += 1 }
        case .deleteToStart:
            characters.removeFirst(cursor)
            cursor = 0
        case .deleteToEnd:
            characters.removeLast(characters.count - cursor)
        case .deleteWordBefore:
            let start = wordStart(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .up:
            return browse(by: -1)
        case .down:
            return browse(by: 1)
        case .clearScreen:
            return .clearScreen
        case .suspend:
            return .suspend
        case .other:
            return .none
        }
        return .redraw
    }

    /// Inserts `character` at the cursor. A character that combines with the one before (a combining
    /// accent, the rest of an emoji sequence) joins it, so the cursor never sits inside a character.
    private mutating func insert(_ character: Character) {
        if cursor > 0 {
            let joined = String(characters[cursor - 1]) + String(character)
            if joined.count == 1, let combined = joined.first {
                characters[cursor - 1] = combined
                return
            }
        }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    private func wordStart(before position: Int) -> Int {
        var start = position
        while start > 0, characters[start - 1].isWhitespace { start -= 1 }
        while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
        return start
    }

    private mutating func browse(by step: Int) -> Outcome {
        let current = browsing ?? history.count
        let next = current + step
        guard next >= 0, next <= history.count, next != current else { return .none }
        if browsing == nil { draft = characters }
        browsing = next == history.count ? nil : next
        characters = next == history.count ? draft : Array(history[next])
        cursor = characters.count
        return .redraw
    }

    /// Adds `line` to the history, unless it is blank or repeats the last entry.
    private mutating func remember(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), history.last != line else { return }
        history.append(line)
        if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
    }

    /// What to show of the line in `columns` cells after a prompt of `promptWidth` cells: all of it when
    /// it fits, otherwise a window around the cursor. Returns the text and the cursor's distance from
    /// its end, in cells.
    ///
    /// Only the characters that can be shown are measured (`width` is called about three times per
    /// cell of room at most, plus once per zero-width character), however long the line: the prompt
    /// draws the line after every read of the terminal, so that pasting a long line takes time linear
    /// in its length.
    func visible(
        columns: Int,
        promptWidth: Int,
        width: (Character) -> Int = LineEditor.cells(of:)
    ) -> (text: String, cursorFromEnd: Int) {
        let room = max(columns - promptWidth - 1, 8)
        // Whether the whole line fits: measure until it overflows.
        var total = 0
        var index = 0
        while index < characters.count, total <= room {
            total += width(characters[index])
            index += 1
        }
        if index == characters.count, total <= room {
            let cursorFromEnd = characters[cursor...].reduce(0) { $0 + width($1) }
            return (Self.shown(characters[...]), cursorFromEnd)
        }
        // Start at the cursor and take characters on both sides until the room is used, the left first
        // so that the text just typed stays in view.
        var start = cursor
        var end = cursor
        var used = 0
        var leftWidth = start > 0 ? width(characters[start - 1]) : 0
        while start > 0, used + leftWidth <= room * 3 / 4 {
            start -= 1
            used += leftWidth
            leftWidth = start > 0 ? width(characters[start - 1]) : 0
        }
        var cursorFromEnd = 0
        while end < characters.count {
            let cells = width(characters[end])
            guard used + cells <= room else { break }
            used += cells
            cursorFromEnd += cells
            end += 1
        }
        while start > 0, used + leftWidth <= room {
            start -= 1
            used += leftWidth
            leftWidth = start > 0 ? width(characters[start - 1]) : 0
        }
        return (Self.shown(characters[start..<end]), cursorFromEnd)
    }

    /// The cells `character` takes on screen as ``shown(_:)`` writes it.
    static func cells(of character: Character) -> Int {
        let escaped = TerminalText.escaped(String(character))
        return escaped.count == 1 ? TerminalText.width(of: character) : TerminalText.width(escaped)
    }

    /// The characters as the prompt writes them: control and bidirectional characters escaped, as in
    /// every other output, so that a pasted `\u{202e}` cannot turn the rest of the line around.
    private static func shown(_ characters: ArraySlice<Character>) -> String {
        TerminalText.escaped(String(characters))
    }
}
