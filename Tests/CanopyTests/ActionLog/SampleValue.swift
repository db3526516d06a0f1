import Foundation

@testable import Canopy

/// A random Codable value for the stream writer's tests: every primitive of `Encoder`, the types
/// `JSONEncoder` treats apart (`Date`, `Data`, `URL`, `Decimal`), optionals, arrays, dictionaries,
/// synthesised enums and structs, and a hand-written conformance that uses nested and super encoders.
indirect enum SampleValue: Codable, Equatable, Sendable {
    case bool(Bool)
    case int(Int)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case uint(UInt)
    case uint8(UInt8)
    case uint16(UInt16)
    case uint32(UInt32)
    case uint64(UInt64)
    case double(Double)
    case float(Float)
    case string(String)
    case labelled(name: String, count: Int?, flag: Bool = false)
    case nothing
    case optional(SampleValue?)
    case list([SampleValue])
    case numbers([Int])
    case words([String])
    case map([String: SampleValue])
    case intMap([Int: SampleValue])
    case date(Date)
    case data(Data)
    case url(URL)
    case decimal(Decimal)
    case record(SampleRecord)
    case manual(SampleManual)
    case wrapped(SampleWrapper)

    /// A random value, at most `depth` levels of containers deep.
    static func random(depth: Int, using random: inout SplitMix64) -> SampleValue {
        let leaves = 18
        let choice = random.next(below: depth > 0 ? leaves + 9 : leaves)
        switch choice {
        case 0: return .bool(random.chance(50))
        case 1: return .int(Int(truncatingIfNeeded: random.next()) >> random.next(below: 64))
        case 2: return .int8(Int8(truncatingIfNeeded: random.next()))
        case 3: return .int16(Int16(truncatingIfNeeded: random.next()))
        case 4: return .int32(Int32(truncatingIfNeeded: random.next()))
        case 5: return .int64(Int64.min + Int64(random.next(below: 3)))
        case 6: return .uint(UInt(random.next()) >> random.next(below: 64))
        case 7: return .uint8(UInt8(truncatingIfNeeded: random.next()))
        case 8: return .uint16(UInt16(truncatingIfNeeded: random.next()))
        case 9: return .uint32(UInt32(truncatingIfNeeded: random.next()))
        case 10: return .uint64(UInt64.max - UInt64(random.next(below: 3)))
        case 11: return .double(randomDouble(using: &random))
        case 12:
            let value = Float(randomDouble(using: &random))
            return .float(value.isFinite ? value : .greatestFiniteMagnitude)
        case 13: return .string(randomText(using: &random))
        case 14:
            return .labelled(
                name: randomText(using: &random),
                count: random.chance(50) ? random.next(below: 100) : nil,
                flag: random.chance(50)
            )
        case 15: return .nothing
        case 16: return .date(Date(timeIntervalSinceReferenceDate: randomDouble(using: &random)))
        case 17:
            switch random.next(below: 3) {
            case 0:
                return .data(Data((0..<random.next(below: 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }))
            case 1: return .url(urls[random.next(below: urls.count)])
            default: return .decimal(decimals[random.next(below: decimals.count)])
            }
        case 18: return .optional(random.chance(30) ? nil : .random(depth: depth - 1, using: &random))
        case 19: return .list((0..<random.next(below: 4)).map { _ in .random(depth: depth - 1, using: &random) })
        case 20: return .numbers((0..<random.next(below: 5)).map { _ in random.next(below: 1_000) - 500 })
        case 21: return .words((0..<random.next(below: 4)).map { _ in randomText(using: &random) })
        case 22:
            var map: [String: SampleValue] = [:]
            for _ in 0..<random.next(below: 4) {
                map[randomText(using: &random)] = .random(depth: depth - 1, using: &random)
            }
            return .map(map)
        case 23:
            var map: [Int: SampleValue] = [:]
            for _ in 0..<random.next(below: 4) {
                map[random.next(below: 200) - 100] = .random(depth: depth - 1, using: &random)
            }
            return .intMap(map)
        case 24: return .record(SampleRecord(random: &random, depth: depth - 1))
        case 25: return .manual(SampleManual(random: &random, depth: depth - 1))
        default: return .wrapped(SampleWrapper(inner: .random(depth: depth - 1, using: &random)))
        }
    }

    /// Finite doubles of every size: integral, tiny, huge, negative, subnormal.
    static func randomDouble(using random: inout SplitMix64) -> Double {
        switch random.next(below: 6) {
        case 0: return Double(random.next(below: 2_000)) - 1_000
        case 1: return Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (random.chance(50) ? 1 : -1)
        case 2: return Double(random.next(below: 1_000_000)) / 1_000
        case 3: return .leastNonzeroMagnitude * Double(random.next(below: 10))
        case 4: return [0.1, -0.0, 1e-7, 1e300, .greatestFiniteMagnitude, 2.0e-308][random.next(below: 6)]
        default: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: random.next()) & 0x7F7F_FFFF))
        }
    }

    /// Text with what JSON must escape, what it may escape and what it must not.
    static func randomText(using random: inout SplitMix64) -> String {
        let pieces = [
            "a", "Ship", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1F}", "\u{7F}", "é",
            "\u{2028}", "🌲", "super", " ", "{", "}", "[", "]", ":", ",", "null", "0", "-",
        ]
        return (0..<random.next(below: 6)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
    }

    static let urls = [
        URL(string: "https://example.com/a/b?c=d&e=%20f#g")!,
        URL(string: "file:///tmp/some%20file.log")!,
        URL(string: "mailto:someone@example.com")!,
    ]

    static let decimals = [
        Decimal(string: "12.50")!, Decimal(string: "-0.000001")!, Decimal(string: "123456789012345678901234567890")!,
        Decimal(0), Decimal(string: "3.14159265358979323846")!,
    ]
}

/// A synthesised struct with optional, array and nested-struct properties.
struct SampleRecord: Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var note: String?
    var tags: [String]
    var child: SampleValue?
    var when: Date?

    init(random: inout SplitMix64, depth: Int) {
        id = random.next(below: 10_000)
        title = SampleValue.randomText(using: &random)
        note = random.chance(50) ? SampleValue.randomText(using: &random) : nil
        tags = (0..<random.next(below: 3)).map { _ in SampleValue.randomText(using: &random) }
        child = random.chance(50) ? .random(depth: depth, using: &random) : nil
        when = random.chance(50) ? Date(timeIntervalSinceReferenceDate: SampleValue.randomDouble(using: &random)) : nil
    }
}

/// A hand-written conformance: nested keyed and unkeyed containers, `superEncoder()` and
/// `superEncoder(forKey:)` used in order, nil in an array, a second `container(keyedBy:)` on the same
/// encoder (as a subclass calling its superclass's `encode(to:)` does).
struct SampleManual: Codable, Equatable, Sendable {
    var first: Int
    var rows: [[Int?]]
    var base: SampleValue
    var extra: String
    var inner: SampleValue

    enum CodingKeys: String, CodingKey {
        case first, rows, extra, inner, base
    }

    enum RowKeys: String, CodingKey {
        case cells, size
    }

    init(random: inout SplitMix64, depth: Int) {
        first = random.next(below: 100)
        rows = (0..<random.next(below: 3)).map { _ in
            (0..<random.next(below: 3)).map { _ in random.chance(30) ? nil : random.next(below: 10) }
        }
        base = .random(depth: depth, using: &random)
        extra = SampleValue.randomText(using: &random)
        inner = .random(depth: depth, using: &random)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(first, forKey: .first)
        var rowList = container.nestedUnkeyedContainer(forKey: .rows)
        for row in rows {
            var rowObject = rowList.nestedContainer(keyedBy: RowKeys.self)
            var cells = rowObject.nestedUnkeyedContainer(forKey: .cells)
            for cell in row {
                if let cell { try cells.encode(cell) } else { try cells.encodeNil() }
            }
            try rowObject.encode(cells.count, forKey: .size)
        }
        try base.encode(to: container.superEncoder())
        try inner.encode(to: container.superEncoder(forKey: .inner))
        var again = encoder.container(keyedBy: CodingKeys.self)
        try again.encode(extra, forKey: .extra)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        first = try container.decode(Int.self, forKey: .first)
        var rowList = try container.nestedUnkeyedContainer(forKey: .rows)
        var rows: [[Int?]] = []
        while !rowList.isAtEnd {
            let rowObject = try rowList.nestedContainer(keyedBy: RowKeys.self)
            var cells = try rowObject.nestedUnkeyedContainer(forKey: .cells)
            var row: [Int?] = []
            while !cells.isAtEnd {
                row.append(try cells.decodeNil() ? nil : try cells.decode(Int.self))
            }
            rows.append(row)
        }
        self.rows = rows
        base = try SampleValue(from: container.superDecoder())
        inner = try SampleValue(from: container.superDecoder(forKey: .inner))
        extra = try container.decode(String.self, forKey: .extra)
    }
}

/// A value written through a single-value container, wrapping another.
struct SampleWrapper: Codable, Equatable, Sendable {
    var inner: SampleValue

    init(inner: SampleValue) {
        self.inner = inner
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(inner)
    }

    init(from decoder: any Decoder) throws {
        inner = try decoder.singleValueContainer().decode(SampleValue.self)
    }
}

/// Actions shaped like TaskBoard's: labelled and defaulted associated values, optionals, a day written
/// as one string, dates, nested enums and an optional struct.
enum BoardLikeAction: Codable, Equatable, Sendable {
    case add(title: String, tags: [String] = [], due: SampleDay? = nil)
    case setDue(id: Int, due: SampleDay?)
    case remind(id: Int, seconds: Double)
    case attemptFailed(reason: String, at: Date)
    case pulled(SampleRecord?)
    case start(Direction)
    case flush

    enum Direction: String, Codable, Equatable, Sendable {
        case push, pull
    }

    static func random(using random: inout SplitMix64) -> BoardLikeAction {
        let day = SampleDay(
            year: 2_000 + random.next(below: 50),
            month: 1 + random.next(below: 12),
            day: 1 + random.next(below: 28)
        )
        switch random.next(below: 7) {
        case 0:
            return .add(
                title: SampleValue.randomText(using: &random),
                tags: random.chance(50) ? ["a", "b/c"] : [],
                due: random.chance(50) ? day : nil
            )
        case 1: return .setDue(id: random.next(below: 100), due: random.chance(50) ? day : nil)
        case 2: return .remind(id: random.next(below: 100), seconds: SampleValue.randomDouble(using: &random))
        case 3:
            return .attemptFailed(
                reason: SampleValue.randomText(using: &random),
                at: Date(timeIntervalSince1970: Double(random.next(below: 2_000_000_000)) / 7)
            )
        case 4: return .pulled(random.chance(50) ? SampleRecord(random: &random, depth: 1) : nil)
        case 5: return .start(random.chance(50) ? .push : .pull)
        default: return .flush
        }
    }
}

/// A calendar day coded as one `yyyy-mm-dd` string.
struct SampleDay: Codable, Equatable, Sendable {
    let year: Int
    let month: Int
    let day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("\(year)-\(month)-\(day)")
    }

    init(from decoder: any Decoder) throws {
        let parts = try decoder.singleValueContainer().decode(String.self).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a day"))
        }
        (year, month, day) = (parts[0], parts[1], parts[2])
    }
}
