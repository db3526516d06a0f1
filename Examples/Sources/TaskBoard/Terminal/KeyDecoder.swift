/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, and the escape
/// sequences of arrows and editing keys (`ESC [ D` is ←, `ESC [ 3 ~` is Delete, `ESC O H` is Home).
///
/// Bytes may arrive in any pieces; an incomplete sequence waits for the next bytes. Escape sequences
/// are never inserted as text, so `list←←⌫` edits the line instead of typing `^[[D`.
struct KeyDecoder {
    private var pending: [UInt8] = []

    /// The keys completed by `bytes`.
    mutating func keys(_ bytes: some Sequence<UInt8>) -> [Key] {
        pending.append(contentsOf: bytes)
        var keys: [Key] = []
        while let (key, length) = Self.decode(pending[...]) {
            pending.removeFirst(length)
            if let key { keys.append(key) }
        }
        return keys
    }

    /// The first key of `bytes` and how many bytes it takes (`nil` key for bytes that are skipped), or
    /// `nil` when more bytes are needed.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B: return escape(bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01: return (.home, 1)
        case 0x02: return (.left, 1)
        case 0x03: return (.interrupt, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x05: return (.end, 1)
        case 0x06: return (.right, 1)
        case 0x0B: return (.deleteToEnd, 1)
        case 0x0C: return (.clearScreen, 1)
        case 0x0E: return (.down, 1)
        case 0x10: return (.up, 1)
        case 0x15: return (.deleteToStart, 1)
        case 0x17: return (.deleteWordBefore, 1)
        case 0x1A: return (.suspend, 1)
        case 0x00..<0x20: return (.other, 1)
        default: return text(bytes)
        }
    }

    /// One UTF-8 encoded scalar; a byte that does not start one is skipped.
    private static func text(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length =
            switch first {
            case 0x00..<0x80: 1
            case 0xC2..<0xE0: 2
            case 0xE0..<0xF0: 3
            case 0xF0..<0xF5: 4
            default: 0
            }
        guard length > 0 else { return (nil, 1) }
        guard bytes.count >= length else { return nil }
        let encoded = bytes.prefix(length)
        guard let decoded = String(validating: encoded, as: UTF8.self), let character = decoded.first else {
            return (nil, 1)
        }
        return (.text(character), length)
    }

    /// `ESC [ params final`, `ESC O final`, or `ESC` and one key (Alt-b, Alt-f, Alt-Backspace).
    private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        guard bytes.count >= 2 else { return nil }
        let second = bytes[bytes.startIndex + 1]
        switch second {
        case UInt8(ascii: "["):
            // Parameters and intermediates (0x20-0x3F), then a final byte (0x40-0x7E).
            var index = bytes.startIndex + 2
            while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
            guard index < bytes.endIndex else { return nil }
            let parameters = String(decoding: bytes[(bytes.startIndex + 2)..<index], as: UTF8.self)
            let length = index - bytes.startIndex + 1
            return (csi(parameters: parameters, final: bytes[index]), length)
        case UInt8(ascii: "O"):
            guard bytes.count >= 3 else { return nil }
            return (ss3(bytes[bytes.startIndex + 2]), 3)
        case UInt8(ascii: "b"): return (.wordLeft, 2)
        case UInt8(ascii: "f"): return (.wordRight, 2)
        case 0x7F, 0x08: return (.deleteWordBefore, 2)
        case 0x1B: return (.other, 1)
        default: return (.other, 2)
        }
    }

    private static func csi(parameters: String, final: UInt8) -> Key {
        // `1;5D` is Ctrl-←, `1;3D` is Alt-←: a modifier moves by words.
        let byWord = parameters.hasSuffix(";5") || parameters.hasSuffix(";3")
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return byWord ? .wordRight : .right
        case UInt8(ascii: "D"): return byWord ? .wordLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            default: return .other
            }
        default: return .other
        }
    }

    private static func ss3(_ final: UInt8) -> Key {
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: .other
        }
    }
}
