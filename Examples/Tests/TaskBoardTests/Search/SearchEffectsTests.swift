import Canopy
import Testing

@testable import TaskBoard

/// The debounced search, driven by the manual scheduler: nothing here sleeps.
@Suite(.timeLimit(.minutes(1))) struct SearchEffectsTests {
    private func board() async -> TestBoard {
        let test = TestBoard()
        await test.board.tasks.send(.tasks(.add(title: "Buy milk", tags: ["home"])))
        await test.board.tasks.send(.tasks(.add(title: "Fix the bike")))
        await test.saveNow()
        return test
    }

    @Test func searchesOnceTheQueryStopsChanging() async throws {
        let test = await board()
        let scheduler = test.scheduler
        let debounce = test.board.environment.searchDebounce
        let latency = test.board.environment.searchLatency
        let base = scheduler.counts.scheduled

        test.board.search.dispatch(.search(.setQuery("milk")))
        await scheduler.waitForScheduled(base + 1, pending: 1)  // the debounce timer is armed
        scheduler.advance(by: debounce / 2)
        #expect(await test.board.search.state.1.phase == .debouncing)

        scheduler.advance(by: debounce / 2)
        await scheduler.waitForScheduled(base + 2, pending: 1)  // the search itself is running
        #expect(await test.board.search.state.1.phase == .searching)
        scheduler.advance(by: latency)

        let state = try #require(await firstState(of: test.board.search) { $0.1.results != nil })
        #expect(state.1.results?.query == "milk")
        #expect(state.1.results?.hits.map(\.taskID) == [1])
        #expect(state.1.results?.hits.first?.highlights == [4..<8])
    }

    @Test func aNewQueryCancelsTheOneWaitingForItsDebounce() async throws {
        let test = await board()
        let scheduler = test.scheduler
        let debounce = test.board.environment.searchDebounce
        let base = scheduler.counts.scheduled

        test.board.search.dispatch(.search(.setQuery("b")))
        await scheduler.waitForScheduled(base + 1, pending: 1)
        scheduler.advance(by: debounce / 2)
        test.board.search.dispatch(.search(.setQuery("bike")))
        // The first timer is cancelled and the second armed: one wait pending, from the second query.
        await scheduler.waitForScheduled(base + 2, pending: 1)
        scheduler.advance(by: debounce / 2)
        #expect(await test.board.search.state.1.phase == .debouncing)  // the old deadline passed: nothing ran

        scheduler.advance(by: debounce / 2)
        await scheduler.waitForScheduled(base + 3, pending: 1)
        scheduler.advance(by: test.board.environment.searchLatency)
        let state = try #require(await firstState(of: test.board.search) { $0.1.results != nil })
        #expect(state.1.results?.query == "bike")
        #expect(state.1.supersededByResults == 1)
    }

    @Test func aNewQueryCancelsTheRunningSearchAndItsResultNeverArrives() async throws {
        let test = await board()
        let scheduler = test.scheduler
        let environment = test.board.environment
        let base = scheduler.counts.scheduled

        test.board.search.dispatch(.search(.setQuery("milk")))
        await scheduler.waitForScheduled(base + 1, pending: 1)
        scheduler.advance(by: environment.searchDebounce)
        await scheduler.waitForScheduled(base + 2, pending: 1)
        #expect(await test.board.search.state.1.phase == .searching)

        test.board.search.dispatch(.search(.setQuery("fix")))
        // The running search's task is cancelled (its wait is dropped) and the new debounce armed.
        await scheduler.waitForScheduled(base + 3, pending: 1)
        scheduler.advance(by: environment.searchLatency)  // when the cancelled search would have finished
        #expect(await test.board.search.state.1.results == nil)

        scheduler.advance(by: environment.searchDebounce)
        await scheduler.waitForScheduled(base + 4, pending: 1)
        scheduler.advance(by: environment.searchLatency)
        let state = try #require(await firstState(of: test.board.search) { $0.1.results != nil })
        #expect(state.1.results?.query == "fix")
        #expect(state.1.results?.hits.map(\.taskID) == [2])
        #expect(state.1.superseded == 1)
    }
}
