import Canopy
import Testing

@testable import TaskBoard

/// Each feature's reducer is scoped with `Reducers.scope` to its own actions: the actions of the other
/// features pass by without a change.
@Suite(.timeLimit(.minutes(1))) struct FeatureReducersTests {
    private static let others: [AppAction] = [
        .setToday(TestBoard.day),
        .tasks(.add(title: "Milk")),
        .search(.setQuery("milk")),
        .sync(.start(.push)),
        .stats(.showTopTags(3)),
    ]

    private func unchanged<State: Equatable>(
        _ reducer: Reducer<State, AppAction>,
        from state: State,
        except own: (AppAction) -> Bool
    ) -> Bool {
        Self.others.filter { !own($0) }.allSatisfy { action in
            var after = state
            reducer(&after, action)
            return after == state
        }
    }

    @Test func aFeatureIgnoresTheOtherFeaturesActions() {
        #expect(unchanged(TasksState.reducer, from: TasksState(), except: { $0.tasks != nil }))
        #expect(unchanged(SearchState.reducer, from: SearchState(), except: { $0.search != nil }))
        #expect(unchanged(SyncState.reducer, from: SyncState(), except: { $0.sync != nil }))
        #expect(unchanged(StatsState.reducer, from: StatsState(), except: { $0.stats != nil }))
    }

    @Test func eachFeatureTakesItsOwnActionsAndTasksTakesAPulledBoard() {
        var tasks = TasksState()
        TasksState.reducer(&tasks, .tasks(.add(title: "Milk")))
        #expect(tasks.items.map(\.title) == ["Milk"])
        let remote = RemoteService.Stored(
            revision: 1,
            board: TasksSnapshot(nextID: 2, tasks: [TaskItem(id: 1, title: "Bread")])
        )
        TasksState.reducer(&tasks, .sync(.pulled(remote)))
        #expect(tasks.items.map(\.title) == ["Bread"])

        var search = SearchState()
        SearchState.reducer(&search, .search(.setQuery("milk")))
        #expect(search.request.text == "milk")
        var stats = StatsState()
        StatsState.reducer(&stats, .stats(.showTopTags(3)))
        #expect(stats.topTags == 3)
    }
}
