import ArgumentParser

/// A due date as typed: `2025-03-14`, `today`, `tomorrow`, `+3` or `+3d` (days from today), or `none`.
enum DueInput: Equatable, Sendable, ExpressibleByArgument {
    case day(Day)
    case daysFromToday(Int)
    case none

    init?(argument: String) {
        switch argument.lowercased() {
        case "none", "never", "-": self = .none
        case "today": self = .daysFromToday(0)
        case "tomorrow": self = .daysFromToday(1)
        case "yesterday": self = .daysFromToday(-1)
        case let text where text.hasPrefix("+") || text.hasPrefix("-"):
            let digits = text.hasSuffix("d") ? text.dropLast() : Substring(text)
            guard let count = Int(digits) else { return nil }
            self = .daysFromToday(count)
        default:
            guard let day = Day(iso: argument) else { return nil }
            self = .day(day)
        }
    }

    /// The most days a relative date may be from today, either way.
    static let mostDays = 36_500

    /// The day meant, given today, or `nil` for no due date. Throws, naming the limit, when the day is
    /// before ``Day/first`` or after ``Day/last``.
    func resolve(today: Day) throws(CommandFailure) -> Day? {
        switch self {
        case .day(let day):
            guard day.isInRange else {
                throw CommandFailure("\(day) is after \(Day.last), the last date a task may be due")
            }
            return day
        case .daysFromToday(let count):
            guard (-Self.mostDays...Self.mostDays).contains(count) else {
                throw CommandFailure(
                    "a date is at most \(Self.mostDays) days (100 years) from today, not \(count < 0 ? "" : "+")\(count)d"
                )
            }
            guard let day = today.adding(days: count) else {
                let limit = count < 0 ? "before \(Day.first), the first" : "after \(Day.last), the last"
                throw CommandFailure(
                    "\(count < 0 ? "" : "+")\(count)d from \(today) is \(limit) date a task may be due"
                )
            }
            return day
        case .none:
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["today", "tomorrow", "+7d", "none"]) }
}
