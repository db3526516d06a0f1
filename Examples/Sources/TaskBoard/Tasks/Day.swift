import Foundation

/// A calendar day without a time of day, such as a due date: `2025-03-14`.
///
/// Days are compared and shifted in the proleptic Gregorian calendar, independently of time zones;
/// only ``init(_:in:)`` looks at a time zone, to find which day an instant falls on.
struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// Creates a day from its parts, or returns `nil` if there is no such day (`2025-02-30`).
    init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        guard let date = Day.calendar.date(from: components),
            Day.calendar.component(.day, from: date) == day
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day on which `date` falls in `timeZone`.
    init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.year = parts.year ?? 1970
        self.month = parts.month ?? 1
        self.day = parts.day ?? 1
    }

    /// Parses `YYYY-MM-DD`.
    init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The day `count` days later (earlier when negative).
    func adding(days count: Int) -> Day {
        guard let date = Day.calendar.date(from: components),
            let shifted = Day.calendar.date(byAdding: .day, value: count, to: date)
        else { return self }
        return Day(shifted, in: Day.calendar.timeZone)
    }

    /// Whole days from `self` to `other`; positive when `other` is later.
    func days(until other: Day) -> Int {
        guard let start = Day.calendar.date(from: components),
            let end = Day.calendar.date(from: other.components)
        else { return 0 }
        return Day.calendar.dateComponents([.day], from: start, to: end).day ?? 0
    }

    static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    private var components: DateComponents {
        var components = DateComponents()
        components.year = year
        components.month = month
        components.day = day
        return components
    }

    // Day arithmetic happens at midnight UTC, where no day is 23 or 25 hours long.
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()
}

extension Day: Codable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = Day(iso: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(text)' is not a date in the form YYYY-MM-DD"
            )
        }
        self = day
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
