import Canopy
import CanopyTesting
import Testing

@testable import TaskBoard

/// The debounced search (`SearchMiddleware`'s run by id), on the test store's clock: every state change
/// and every action the run sends is asserted, and nothing sleeps.
@Suite(.timeLimit(.minutes(1))) struct SearchEffectsTests {
    private let debounce = Environment().searchDebounce
    private let latency = Environment().searchLatency

    /// The board as the app builds it, with two tasks; the tests assert the Search state.
    private func makeStore() -> TestStore<SearchSnapshot, AppAction> {
        TestStore(observing: \SearchStoreState.1.snapshot) { scheduler in
            let saved = TasksSnapshot(
                nextID: 3,
                tasks: [TaskItem(id: 1, title: "Buy milk", tags: ["home"]), TaskItem(id: 2, title: "Fix the bike")]
            )
            let environment = withDependencies {
                $0.scheduler = scheduler
            } operation: {
                Environment()
            }
            return Board(today: TestBoard.day, saved: saved, environment: environment).search
        }
    }

    @Test func searchesOnceTheQueryStopsChanging() async {
        let store = makeStore()
        await store.send(.search(.setQuery("milk"))) {
            $0.request = SearchState.Request(text: "milk", serial: 1)
            $0.phase = .debouncing
        }
        await store.advance(by: debounce / 2)  // half the debounce: nothing yet
        await store.receive(.started(serial: 1), from: \.search) { $0.phase = .searching }
        #expect(store.now == debounce)
        let hit = SearchHit(taskID: 1, title: "Buy milk", highlights: [4..<8], matchedTags: [])
        await store.receive(.finished(SearchResults(serial: 1, query: "milk", hits: [hit])), from: \.search) {
            $0.results = SearchResults(serial: 1, query: "milk", hits: [hit])
            $0.phase = .done
        }
        #expect(store.now == debounce + latency)
        await store.finish()
    }

    @Test func aNewQueryCancelsTheOneWaitingForItsDebounce() async {
        let store = makeStore()
        await store.send(.search(.setQuery("b"))) {
            $0.request = SearchState.Request(text: "b", serial: 1)
            $0.phase = .debouncing
        }
        await store.advance(by: debounce / 2)
        await store.send(.search(.setQuery("bike"))) {
            $0.request = SearchState.Request(text: "bike", serial: 2)
            $0.superseded = 1
        }
        await store.advance(by: debounce / 2)  // the first query's debounce would end now: nothing arrives
        await store.receive(.started(serial: 2), from: \.search) { $0.phase = .searching }
        let hit = SearchHit(taskID: 2, title: "Fix the bike", highlights: [8..<12], matchedTags: [])
        await store.receive(.finished(SearchResults(serial: 2, query: "bike", hits: [hit])), from: \.search) {
            $0.results = SearchResults(serial: 2, query: "bike", hits: [hit])
            $0.supersededByResults = 1
            $0.phase = .done
        }
        await store.finish()
    }

    @Test func aNewQueryCancelsTheRunningSearchAndItsResultNeverArrives() async {
        let store = makeStore()
        await store.send(.search(.setQuery("milk"))) {
            $0.request = SearchState.Request(text: "milk", serial: 1)
            $0.phase = .debouncing
        }
        await store.receive(.started(serial: 1), from: \.search) { $0.phase = .searching }
        await store.send(.search(.setQuery("fix"))) {
            $0.request = SearchState.Request(text: "fix", serial: 2)
            $0.phase = .debouncing
            $0.superseded = 1
        }
        await store.advance(by: latency)  // when the cancelled search would have finished
        await store.receive(.started(serial: 2), from: \.search) { $0.phase = .searching }
        let hit = SearchHit(taskID: 2, title: "Fix the bike", highlights: [0..<3], matchedTags: [])
        await store.receive(.finished(SearchResults(serial: 2, query: "fix", hits: [hit])), from: \.search) {
            $0.results = SearchResults(serial: 2, query: "fix", hits: [hit])
            $0.supersededByResults = 1
            $0.phase = .done
        }
        await store.finish()
    }

    @Test func clearCancelsTheRunningSearch() async {
        let store = makeStore()
        await store.send(.search(.setQuery("milk"))) {
            $0.request = SearchState.Request(text: "milk", serial: 1)
            $0.phase = .debouncing
        }
        await store.receive(.started(serial: 1), from: \.search) { $0.phase = .searching }
        await store.send(.search(.clear)) {
            $0.request = SearchState.Request(text: "", serial: 2)
            $0.phase = .idle
            $0.superseded = 1
        }
        await store.advance(by: latency)  // when the cancelled search would have finished: nothing arrives
        await store.finish()
    }
}

/// The Search state as the tests state it: all of `SearchState` but a private count that only its
/// reducer can set.
struct SearchSnapshot: Equatable {
    var request: SearchState.Request
    var phase: SearchState.Phase
    var results: SearchResults?
    var superseded: Int
    var supersededByResults: Int

    init(_ state: SearchState) {
        request = state.request
        phase = state.phase
        results = state.results
        superseded = state.superseded
        supersededByResults = state.supersededByResults
    }
}

extension SearchState {
    var snapshot: SearchSnapshot {
        SearchSnapshot(self)
    }
}
