import Testing

@testable import TaskBoard

@Suite struct DayTests {
    @Test func parsesAndPrintsISODates() {
        #expect(Day(iso: "2025-03-04")?.description == "2025-03-04")
        #expect(Day(iso: "2025-02-30") == nil)
        #expect(Day(iso: "25-3-4") == nil)
    }
}
