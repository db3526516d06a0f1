/// How text is styled: ANSI colors on a terminal, plain text with visible markers elsewhere.
struct Theme: Sendable {
    let colors: Bool

    func bold(_ text: String) -> String { style(text, "1") }
    func dim(_ text: String) -> String { style(text, "2") }
    func error(_ text: String) -> String { style(text, "1;31") }
    func warning(_ text: String) -> String { style(text, "1;33") }
    func success(_ text: String) -> String { style(text, "32") }
    func tag(_ text: String) -> String { style(text, "36") }

    /// Marks matched text: reverse video on a terminal, `[brackets]` in plain text.
    func highlight(_ text: String) -> String {
        colors ? style(text, "7") : "[\(text)]"
    }

    /// `text` with the character ranges `ranges` (sorted, not overlapping) highlighted, and its control
    /// characters escaped (``TerminalText/escaped(_:)``).
    func highlight(_ text: String, ranges: [Range<Int>]) -> String {
        let characters = Array(text)
        var result = ""
        var position = 0
        for range in ranges {
            let lower = min(max(range.lowerBound, position), characters.count)
            let upper = min(range.upperBound, characters.count)
            guard lower < upper else { continue }
            result += TerminalText.escaped(String(characters[position..<lower]))
            result += highlight(TerminalText.escaped(String(characters[lower..<upper])))
            position = upper
        }
        result += TerminalText.escaped(String(characters[position...]))
        return result
    }

    private func style(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
