import Canopy
import Testing

@testable import TaskBoard

/// The Stats subscription: dedup, debounce, props on the presentation queue, driven by the manual
/// scheduler.
@Suite(.timeLimit(.minutes(1))) struct StatsPresenterTests {
    private func input(_ revision: Int, topTags: Int = 5) -> StatsProps.Input {
        StatsProps.Input(revision: revision, today: TestBoard.day, topTags: topTags)
    }

    /// A board without saving, so the only timers are the Stats subscription's.
    private func board() async -> TestBoard {
        let test = TestBoard(saving: false)
        await test.settleStats()  // the first state waits out the debounce too
        _ = await test.board.statsPresenter.props(for: input(0))
        return test
    }

    @Test func aBurstOfChangesIsComputedOnceAfterTheDebounce() async {
        let test = await board()
        let presenter = test.board.statsPresenter
        let before = presenter.computations
        for title in ["A", "B", "C"] {
            await test.board.tasks.send(.tasks(.add(title: title, tags: ["home"])))
        }
        _ = await test.board.stats.state  // the subscription has seen every state
        #expect(test.scheduler.pendingCount == 1)  // one timer for the whole burst
        #expect(presenter.latest?.input == input(0))  // and nothing delivered yet

        test.scheduler.advance(by: test.board.environment.statsDebounce)
        let props = await presenter.props(for: input(3))
        #expect(props.total == 3)
        #expect(props.topTags == [StatsProps.TagCount(tag: "home", count: 3)])
        #expect(presenter.computations == before + 1)
    }

    @Test func changesOutsideTheStatsInputAreDroppedByDedup() async {
        let test = await board()
        let presenter = test.board.statsPresenter
        let before = presenter.computations
        await test.board.search.send(.search(.setQuery("milk")))
        await test.board.sync.send(.sync(.setAutoSync(false)))
        await test.board.tasks.send(.tasks(.reminderFired(id: 1)))
        // A change that does count goes through, so the ones before it were seen and dropped.
        await test.board.stats.send(.stats(.showTopTags(2)))
        await test.settleStats()
        let props = await presenter.props(for: input(0, topTags: 2))
        #expect(props.input.topTags == 2)
        #expect(presenter.computations == before + 1)
    }
}
