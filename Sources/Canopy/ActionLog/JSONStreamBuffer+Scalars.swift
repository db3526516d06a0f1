extension JSONStreamBuffer {
    /// Appends `text` as it is: JSON the caller has written out, such as the keys of an envelope.
    mutating func writeRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Writes `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as
    /// UTF-8.
    mutating func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // A native string's UTF-8 is read where it lies; a bridged one's is copied first.
        let done = text.utf8.withContiguousStorageIfAvailable { utf8 in
            writeEscaped(utf8)
            return true
        }
        if done == nil {
            writeEscaped(Array(text.utf8))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes `utf8` with quotes, backslashes and control characters escaped.
    private mutating func writeEscaped<UTF8: RandomAccessCollection<UInt8>>(_ utf8: UTF8) {
        // Most text needs no escape: one copy.
        guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            bytes.append(contentsOf: utf8)
            return
        }
        var runStart = utf8.startIndex
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                utf8.formIndex(after: &index)
                continue
            }
            bytes.append(contentsOf: utf8[runStart..<index])
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            default:
                bytes.append(contentsOf: "u00".utf8)
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0x0F))
            }
            utf8.formIndex(after: &index)
            runStart = index
        }
        bytes.append(contentsOf: utf8[runStart..<index])
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// Writes a signed integer in decimal.
    mutating func writeInteger(_ value: some FixedWidthInteger & SignedInteger) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        writeDigits(UInt64(value.magnitude))
    }

    /// Writes an unsigned integer in decimal.
    mutating func writeInteger(_ value: some FixedWidthInteger & UnsignedInteger) {
        writeDigits(UInt64(value))
    }

    private mutating func writeDigits(_ value: UInt64) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits = 0
        var rest = value
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let end = bytes.count + digits
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        rest = value
        var index = end
        while rest > 0 {
            index -= 1
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    /// Writes a finite `Double` as the shortest text that reads back as the same value.
    ///
    /// - Throws: ``JSONStreamWriter/NeedsFoundation`` for infinities and NaN, which `JSONEncoder` refuses with an
    ///   `EncodingError` of its own.
    mutating func writeFloat(_ value: Double) throws {
        guard value.isFinite else {
            spoil()
            throw JSONStreamWriter.NeedsFoundation()
        }
        writeText(of: value)
    }

    /// Writes a finite `Float` as the shortest text that reads back as the same value.
    ///
    /// - Throws: ``JSONStreamWriter/NeedsFoundation`` for infinities and NaN, which `JSONEncoder` refuses with an
    ///   `EncodingError` of its own.
    mutating func writeFloat(_ value: Float) throws {
        guard value.isFinite else {
            spoil()
            throw JSONStreamWriter.NeedsFoundation()
        }
        writeText(of: value)
    }

    /// Writes `value`'s shortest text that reads back as the same value. The text is a `String` stored
    /// inline, with no allocation, for all but the longest numbers.
    private mutating func writeText(of value: some BinaryFloatingPoint & CustomStringConvertible) {
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Writes `true` or `false`.
    mutating func writeBool(_ value: Bool) {
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// Writes `null`.
    mutating func writeNull() {
        bytes.append(contentsOf: "null".utf8)
    }
}
