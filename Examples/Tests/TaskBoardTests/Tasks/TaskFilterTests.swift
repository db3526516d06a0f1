import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct TaskFilterTests {
    private let today = Day(year: 2025, month: 3, day: 14)!
    private let tasks = [
        TaskItem(id: 1, title: "Late", tags: ["work"], due: Day(year: 2025, month: 3, day: 13)),
        TaskItem(id: 2, title: "Today", tags: ["home"], due: Day(year: 2025, month: 3, day: 14)),
        TaskItem(id: 3, title: "Done late", isDone: true, tags: ["work"], due: Day(year: 2025, month: 3, day: 1)),
        TaskItem(id: 4, title: "Someday"),
    ]

    private func ids(_ filter: TaskFilter) -> [Int] {
        filter.apply(to: tasks, today: today).map(\.id)
    }

    @Test func filtersByStatusTagAndOverdue() {
        #expect(ids(TaskFilter()) == [1, 2, 3, 4])
        #expect(ids(TaskFilter(status: .open)) == [1, 2, 4])
        #expect(ids(TaskFilter(status: .done)) == [3])
        #expect(ids(TaskFilter(tag: "work")) == [1, 3])
        #expect(ids(TaskFilter(overdueOnly: true)) == [1])
        #expect(ids(TaskFilter(status: .open, tag: "home")) == [2])
    }

    @Test func summaryNamesTheFilter() {
        #expect(TaskFilter(status: .open, tag: "home", overdueOnly: true).summary == "overdue open tasks tagged #home")
        #expect(TaskFilter().summary == "tasks")
    }
}
