import Foundation
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct DayTests {
    @Test func parsesAndPrintsISODates() {
        #expect(Day(iso: "2025-03-04")?.description == "2025-03-04")
        #expect(Day(iso: "2025-02-30") == nil)
        #expect(Day(iso: "2024-02-29") != nil)
        #expect(Day(iso: "25-3-4") == nil)
    }

    @Test func shiftsAndCountsDaysAcrossMonthsAndYears() {
        let day = Day(year: 2024, month: 12, day: 30)!
        #expect(day.adding(days: 3) == Day(year: 2025, month: 1, day: 2))
        #expect(day.adding(days: -30) == Day(year: 2024, month: 11, day: 30))
        #expect(day.days(until: Day(year: 2025, month: 3, day: 1)!) == 61)
    }

    @Test func dueInputResolvesRelativeDays() throws {
        let today = Day(year: 2025, month: 3, day: 14)!
        #expect(try DueInput(argument: "tomorrow")?.resolve(today: today) == Day(year: 2025, month: 3, day: 15))
        #expect(try DueInput(argument: "+7d")?.resolve(today: today) == Day(year: 2025, month: 3, day: 21))
        #expect(try DueInput(argument: "-2d")?.resolve(today: today) == Day(year: 2025, month: 3, day: 12))
        #expect(DueInput(argument: "none") == DueInput.none)
        #expect(DueInput(argument: "soon") == nil)
    }

    @Test func tagsAreNormalized() {
        #expect(Tag.normalize("#Home") == "home")
        #expect(Tag.normalize("work/q3") == "work/q3")
        #expect(Tag.normalize("two words") == nil)
        #expect(Tag.normalize("#") == nil)
    }
}
