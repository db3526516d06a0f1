/// Text as a terminal shows it: control characters made visible, and widths in cells.
///
/// A title or a tag may hold anything (a pasted escape sequence, a newline from a pulled board); printed
/// raw, `\e[31m` would recolour the terminal and a newline would break a list. ``escaped(_:)`` shows them
/// as `\e`, `\n`, `\u{7}`. Columns are measured in terminal cells, not characters: `日本` takes four
/// cells, `é` written as `e` and a combining accent takes one, `👨‍👩‍👧` takes two.
enum TerminalText {
    /// `text` with every control character written out: `\e`, `\n`, `\r`, `\t`, and `\u{...}` for the
    /// other C0 and C1 controls, DEL and the bidirectional controls. Other text is unchanged.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\u{1B}": result += "\\e"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return result
    }

    /// Whether `scalar` is a C0 or C1 control character, DEL, or a bidirectional control: the marks,
    /// embeddings, overrides and isolates (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069) that
    /// reorder the text around them, so that a title could show `txt.exe` for `exe.txt` or turn the
    /// rest of a line around.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The cells `text` takes on a terminal.
    static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// The cells one character (a grapheme cluster) takes: 2 for wide East Asian characters and emoji,
    /// 0 for a lone combining mark or zero-width character, 1 otherwise.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if isControl(first) { return 0 }
        let properties = first.properties
        if isWide(first) || properties.isEmojiPresentation { return 2 }
        // A text-style emoji made to look like a picture (`❤️`: U+2764 U+FE0F) takes two cells too.
        if properties.isEmoji, scalars.contains("\u{FE0F}") { return 2 }
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    /// `text` followed by spaces up to `cells` cells (nothing is cut).
    static func padded(_ text: String, toWidth cells: Int) -> String {
        text + String(repeating: " ", count: max(0, cells - width(text)))
    }

    /// The East Asian Wide and Fullwidth blocks (Unicode's EastAsianWidth.txt, in broad ranges).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }
}
