import Foundation
import Testing

@testable import Canopy

/// The action log's JSON writer: what it writes decodes with `JSONDecoder` to what `JSONEncoder`'s
/// output decodes to, and what it cannot stream it refuses so that `JSONEncoder` writes it.
@Suite(.timeLimit(.minutes(1))) struct JSONStreamWriterTests {
    /// The stream writer's JSON for `value`, as text.
    static func streamed(_ value: some Encodable) throws -> String {
        let writer = JSONStreamWriter()
        try writer.append(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// What differs between `value` written by the stream writer and by `JSONEncoder`, both read back
    /// by `JSONDecoder`; `nil` when they read back equal (and, if `original`, equal to `value`).
    static func mismatch<Value: Codable & Equatable>(_ value: Value, original: Bool = true) -> String? {
        let writer = JSONStreamWriter()
        do {
            try writer.append(value)
        } catch {
            return "the stream writer threw \(error) for \(value)"
        }
        let ours = Data(writer.bytes)
        let text = String(decoding: ours, as: UTF8.self)
        do {
            let decoded = try JSONDecoder().decode(Value.self, from: ours)
            let reference = try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
            if decoded != reference { return "read back as \(decoded), JSONEncoder's as \(reference): \(text)" }
            if original && decoded != value { return "read back as \(decoded), not \(value): \(text)" }
            return nil
        } catch {
            return "\(error) for \(text)"
        }
    }

    @Test func writesWhatJSONDecoderReadsBack() throws {
        #expect(
            try Self.streamed(SampleValue.labelled(name: "Ship", count: nil, flag: true))
                == #"{"labelled":{"flag":true,"name":"Ship"}}"#
        )
        #expect(try Self.streamed([1, -2, 0, Int.min, Int.max]) == "[1,-2,0,-9223372036854775808,9223372036854775807]")
        #expect(try Self.streamed([UInt64.max]) == "[18446744073709551615]")
        #expect(try Self.streamed(["a": [true, false]]) == #"{"a":[true,false]}"#)
        #expect(try Self.streamed([0.1, 1e-7, -0.0, 1]) == "[0.1,1e-07,-0.0,1.0]")
        #expect(try Self.streamed("top") == #""top""#)
        #expect(try Self.streamed(Int?.none) == "null")
        #expect(try Self.streamed(SampleValue.nothing) == #"{"nothing":{}}"#)
    }

    /// A keyed value that encodes its entries in the order it was built, as a dictionary may.
    struct Ordered: Encodable {
        var entries: [(String, Int)]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in entries {
                try container.encode(value, forKey: Key(stringValue: key))
            }
        }
    }

    @Test func equalObjectsBuiltInAnotherOrderAreTheSameBytes() throws {
        let entries = [("b", 2), ("a", 1), ("é", 5), ("ab", 3), ("Z", 4)]
        let forward = try Self.streamed([Ordered(entries: entries)])
        let backward = try Self.streamed([Ordered(entries: entries.reversed())])
        #expect(forward == #"[{"Z":4,"a":1,"ab":3,"b":2,"é":5}]"#)
        #expect(backward == forward)
    }

    @Test func equalDictionariesBuiltInAnotherOrderAreTheSameBytes() throws {
        let keys = (0..<64).map { "key \($0)" }
        var small: [String: [String: Int]] = [:]
        var large: [String: [String: Int]] = [:]
        large.reserveCapacity(1_000)
        for (index, key) in keys.enumerated() {
            small[key] = ["y": index, "x": -index]
        }
        for (index, key) in keys.enumerated().reversed() {
            large[key] = ["x": -index, "y": index]
        }
        #expect(small == large)
        #expect(Array(small.keys) != Array(large.keys))  // built so that they iterate differently
        #expect(try Self.streamed(small) == Self.streamed(large))
    }

    @Test func escapesWhatJSONNeeds() throws {
        let text = "q\"b\\s/n\nr\rt\tb\u{8}f\u{C}z\u{0}u\u{1F}d\u{7F}é🌲\u{2028}"
        #expect(try Self.streamed(text) == #""q\"b\\s/n\nr\rt\tb\bf\fz\u0000u\u001fd"# + "\u{7F}é🌲\u{2028}\"")
        #expect(Self.mismatch([text: text]) == nil)
        // A string that is not stored as contiguous UTF-8.
        let bridged = String(decoding: Array("a\"b/é".utf16), as: UTF16.self)
        #expect(Self.mismatch([bridged]) == nil)
    }

    @Test func everyEscapeReadsBackWhereverItStandsInTheString() throws {
        // Each character that needs an escape, alone, at either end of a run, twice in a row, and beside
        // multi-byte UTF-8: the unescaped runs between escapes are copied as slices of the string.
        let escaped = (0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) } + ["\"", "\\"]
        var texts = escaped.flatMap { character in
            ["\(character)", "a\(character)", "\(character)a", "\(character)\(character)", "é\(character)🌲"]
        }
        texts.append(String(escaped))
        texts.append(escaped.map { "run \($0) é" }.joined())
        for text in texts {
            let json = try Self.streamed(text)
            let read = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
            #expect(read as? String == text, "\(json.debugDescription) read back as \(read)")
            #expect(try JSONDecoder().decode(String.self, from: Data(json.utf8)) == text)
        }
    }

    @Test func writesFoundationTypesAsJSONEncoderDoes() throws {
        let data = Data([0, 1, 2, 250, 251, 252, 253, 254, 255])
        #expect(try Self.streamed([data]) == #"["AAEC+vv8/f7/"]"#)
        #expect(try Self.streamed(data) == #""AAEC+vv8/f7/""#)
        #expect(try Self.streamed([Decimal(string: "12.50")!]) == "[12.5]")
        #expect(try Self.streamed([Date(timeIntervalSinceReferenceDate: 1.5)]) == "[1.5]")
        let relative = URL(string: "b/c", relativeTo: URL(string: "https://example.com/a/"))!
        #expect(try Self.streamed([relative]) == #"["https://example.com/a/b/c"]"#)
        #expect(Self.mismatch([relative], original: false) == nil)
        #expect(Self.mismatch([Decimal(string: "-123456789012345678901234567890.5")!]) == nil)
    }

    @Test func refusesNonFiniteFloatsLikeJSONEncoder() {
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(throws: JSONStreamWriter.NeedsFoundation.self) { try Self.streamed(["x": value]) }
            #expect(throws: EncodingError.self) { try JSONEncoder().encode(["x": value]) }
        }
        #expect(throws: JSONStreamWriter.NeedsFoundation.self) { try Self.streamed([Float.nan]) }
        #expect(throws: JSONStreamWriter.NeedsFoundation.self) { try Self.streamed(Decimal.nan) }
    }

    @Test func refusesAValueThatEncodesNothingLikeJSONEncoder() {
        #expect(throws: EncodingError.self) { try Self.streamed(EncodesNothing()) }
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(EncodesNothing()) }
        // Nested, it is an empty object for both.
        #expect((try? Self.streamed([EncodesNothing()])) == "[{}]")
    }

    @Test func leavesTheBufferAsItWasWhenItRefuses() throws {
        let writer = JSONStreamWriter()
        writer.bytes = Array("prefix ".utf8)
        #expect(throws: JSONStreamWriter.NeedsFoundation.self) { try writer.append(["a": 1.0, "b": .nan]) }
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "prefix ")
        try writer.append([1])
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "prefix [1]")
    }

    @Test(arguments: OutOfOrder.Misuse.allCases)
    func refusesContainersUsedOutOfOrder(_ misuse: OutOfOrder.Misuse) throws {
        let value = OutOfOrder(misuse: misuse)
        #expect(throws: JSONStreamWriter.NeedsFoundation.self) { try Self.streamed(value) }
        // JSONEncoder writes it; the action log falls back to it.
        _ = try JSONEncoder().encode(value)
    }

    @Test func aCaughtErrorInsideAValueSendsItToJSONEncoder() {
        #expect(throws: JSONStreamWriter.NeedsFoundation.self) { try Self.streamed(CatchesNaN()) }
    }

    @Test func randomValuesReadBackAsJSONEncoderWroteThem() {
        var random = SplitMix64(seed: 13)
        var problems: [String] = []
        for index in 0..<3_000 {
            let value = SampleValue.random(depth: 4, using: &random)
            if let problem = Self.mismatch(value) {
                problems.append("value #\(index): \(problem)")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(3).joined(separator: "\n"))")
    }
}

/// Encodes nothing at all.
private struct EncodesNothing: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

/// Catches the error a non-finite double raises and goes on.
private struct CatchesNaN: Encodable {
    enum CodingKeys: CodingKey { case a, b }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try? container.encode([Double.nan], forKey: .a)
        try container.encode(1, forKey: .b)
    }
}

/// Hand-written conformances that `JSONEncoder` accepts but a stream cannot write in order.
struct OutOfOrder: Encodable {
    enum Misuse: CaseIterable, Sendable {
        case nestedContainerAfterItsParentMovedOn
        case superEncoderFilledLate
        case keyWrittenTwice
        case nestedContainersMergedUnderOneKey
        case unkeyedContainerAfterItsParentMovedOn
    }

    enum CodingKeys: CodingKey { case a, b }

    let misuse: Misuse

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch misuse {
        case .nestedContainerAfterItsParentMovedOn:
            var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
            try container.encode(1, forKey: .b)
            try nested.encode(2, forKey: .a)
        case .superEncoderFilledLate:
            let parent = container.superEncoder()
            try container.encode(1, forKey: .b)
            try 2.encode(to: parent)
        case .keyWrittenTwice:
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .a)
        case .nestedContainersMergedUnderOneKey:
            var first = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
            try first.encode(1, forKey: .a)
            var second = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
            try second.encode(2, forKey: .b)
        case .unkeyedContainerAfterItsParentMovedOn:
            var list = container.nestedUnkeyedContainer(forKey: .a)
            try container.encode(1, forKey: .b)
            try list.encode(2)
        }
    }
}
