import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct StatsPropsTests {
    private let today = Day(year: 2025, month: 3, day: 14)!

    private func tasks(_ items: [TaskItem]) -> TasksState {
        TasksState(items: items)
    }

    @Test func countsCompletionOverdueAndDueToday() {
        let props = StatsProps(
            tasks: tasks([
                TaskItem(id: 1, title: "a", due: Day(year: 2025, month: 3, day: 1)),
                TaskItem(id: 2, title: "b", due: today),
                TaskItem(id: 3, title: "c", isDone: true, due: Day(year: 2025, month: 3, day: 1)),
                TaskItem(id: 4, title: "d", isDone: true),
            ]),
            today: today,
            options: StatsState()
        )
        #expect(props.total == 4)
        #expect(props.open == 2)
        #expect(props.done == 2)
        #expect(props.completionRate == 0.5)
        #expect(props.overdue == 1)
        #expect(props.dueToday == 1)
    }

    @Test func tagsHistogramIsRankedAndCut() {
        var options = StatsState()
        StatsState.reducer(&options, .stats(.showTopTags(2)))
        let props = StatsProps(
            tasks: tasks([
                TaskItem(id: 1, title: "a", tags: ["home", "work"]),
                TaskItem(id: 2, title: "b", tags: ["work"]),
                TaskItem(id: 3, title: "c", tags: ["errands"]),
                TaskItem(id: 4, title: "d"),
            ]),
            today: today,
            options: options
        )
        #expect(props.topTags == [.init(tag: "work", count: 2), .init(tag: "errands", count: 1)])
        #expect(props.otherTagCount == 1)
        #expect(props.untagged == 1)
    }

    @Test func anEmptyBoardHasNoCompletionRate() {
        let props = StatsProps(tasks: tasks([]), today: today, options: StatsState())
        #expect(props.completionRate == nil)
        #expect(StatsView(theme: Theme(colors: false)).lines(props) == ["the board is empty"])
    }

    @Test func topTagsIsClamped() {
        var options = StatsState()
        StatsState.reducer(&options, .stats(.showTopTags(500)))
        #expect(options.topTags == 50)
    }
}
