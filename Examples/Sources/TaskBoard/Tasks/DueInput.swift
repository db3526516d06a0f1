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
            guard let count = Int(digits), abs(count) <= 36_500 else { return nil }
            self = .daysFromToday(count)
        default:
            guard let day = Day(iso: argument) else { return nil }
            self = .day(day)
        }
    }

    /// The day meant, given today.
    func resolve(today: Day) -> Day? {
        switch self {
        case .day(let day): day
        case .daysFromToday(let count): today.adding(days: count)
        case .none: nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["today", "tomorrow", "+7d", "none"]) }
}
