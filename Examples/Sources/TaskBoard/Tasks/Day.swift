import Foundation

/// A calendar day without a time of day, such as a due date: `2025-03-14`.
///
/// Days are compared and shifted in the proleptic Gregorian calendar, independently of time zones;
/// only ``init(_:in:)`` looks at a time zone, to find which day an instant falls on.
struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    let year: Int
    let month: Int
    let day: Int

    /// The first day a date typed or computed may be.
    static let first = Day(checkedYear: 1, month: 1, day: 1)
    /// The last day a date typed or computed may be. Days after it (up to year 99999) are still read
    /// back from a board that holds them, so that a board stays readable; none is made anew.
    static let last = Day(checkedYear: 9999, month: 12, day: 31)

    /// Whether the day is one a command may set: from ``first`` to ``last``.
    var isInRange: Bool { (Day.first...Day.last).contains(self) }

    /// Creates a day from its parts, or returns `nil` if there is no such day (`2025-02-30`) or its
    /// year is not from 1 to 99999.
    init?(year: Int, month: Int, day: Int) {
        guard (1...99_999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
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

    /// Parses `YYYY-MM-DD` (a year after 9999 has five digits).
    init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, (4...5).contains(parts[0].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }), parts[1].count == 2, parts[2].count == 2,
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

    /// The day `count` days later (earlier when negative), or `nil` when it is not from ``first`` to
    /// ``last``.
    func adding(days count: Int) -> Day? {
        guard let date = Day.calendar.date(from: components),
            let shifted = Day.calendar.date(byAdding: .day, value: count, to: date),
            // Before year 1 the calendar counts years back from 1 BC: such a day has no `Day`.
            Day.calendar.component(.era, from: shifted) == 1
        else { return nil }
        let day = Day(shifted, in: Day.calendar.timeZone)
        return day.isInRange ? day : nil
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

    /// A day whose parts are known to be valid.
    private init(checkedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
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
