import Canopy
import Testing

/// The examples from README.md and Docs/, kept compiling and checked.
@Suite(.timeLimit(.minutes(1))) struct DocExamplesTests {
    @Test func readmeQuickStart() async {
        enum Action: Sendable { case add(String) }

        let root = StateStore<Int, Action>(0) { count, _ in count += 1 }
        let todos = root.with([String]()) { items, action in
            if case .add(let title) = action { items.append(title) }
        }
        let printed = StateRecorder<String>()
        let subscription = todos.subscribe(removeStateDuplicates: .keyPath(\.1)) { count, items in
            printed.record("\(count) actions, items: \(items)")
        }
        todos.dispatch(.add("Write docs"))
        let (count, items) = await todos.send(.add("Ship"))
        #expect(count == 2)
        #expect(items == ["Write docs", "Ship"])
        #expect(
            await printed.waitFor(count: 3) == [
                "0 actions, items: []", "1 actions, items: [\"Write docs\"]",
                "2 actions, items: [\"Write docs\", \"Ship\"]",
            ]
        )
        subscription.cancel()
    }

    @Test func storeTreeOverview() async {
        struct App: Sendable { var actions = 0 }
        struct Profile: Sendable { var name = "" }
        enum Action: Sendable { case rename(String) }

        let root = StateStore<App, Action>(App()) { app, _ in app.actions += 1 }
        let profile = root.with(Profile()) { profile, action in
            if case .rename(let name) = action { profile.name = name }
        }
        profile.dispatch(.rename("Ada"))
        let (app, me) = await profile.state
        #expect(app.actions == 1)
        #expect(me.name == "Ada")
    }
}
