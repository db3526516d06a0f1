import Dispatch
import Testing

@testable import Canopy

/// Where a root middleware's follow-ups go: its dispatches and a debounce's release reach the node the
/// handled action was sent to.
@Suite(.timeLimit(.minutes(1))) struct FollowUpRoutingTests {
    @Test func aRootMiddlewaresDispatchAndDebounceGoToTheNodeTheActionWasSentTo() async {
        let scheduler = ManualScheduler()
        let rootSeen = StateRecorder<String>()
        let root = StateStore<[String], String>(
            [],
            scheduler: scheduler,
            middlewares: [
                Middleware("log") { action, context in
                    rootSeen.record(action)
                    context.next(action)
                },
                Middleware("echo") { action, context in
                    if action == "ping" { context.dispatch("pong") }
                    context.next(action)
                },
                .debounce({ $0.hasPrefix("type") }, for: 1),
            ],
            reducer: { state, action in state.append(action) }
        )
        let child = root.with([String]()) { local, action in local.append(action) }
        await child.send("ping")
        await child.send("type a")
        await child.send("type ab")
        scheduler.advance(by: 1)
        let state = await child.state
        #expect(state.1 == ["ping", "pong", "type ab"])
        // The log middleware saw the resumed action once, when it was sent, not again on release.
        #expect(rootSeen.values == ["ping", "pong", "type a", "type ab"])
    }

    /// Three chains on the path of an action to a grandchild run the root's first, then the child's,
    /// then the grandchild's; an action a debounce in the child's chain lets go later meets only what
    /// comes after the debounce: the rest of the child's chain and the grandchild's, not the root's.
    @Test func chainsOnThePathRunRootFirstAndAResumedActionSkipsTheChainsAboveItsDebounce() async {
        let scheduler = ManualScheduler()
        let seen = StateRecorder<String>()
        func logging<State>(_ name: String, _: State.Type) -> Middleware<State, String> {
            Middleware(name) { action, context in
                seen.record("\(name) \(action)")
                context.next(action)
            }
        }
        let root = StateStore<[String], String>(
            [],
            scheduler: scheduler,
            middlewares: [logging("root", [String].self)],
            reducer: { state, action in state.append(action) }
        )
        let child = root.with(0) { _, _ in }
        child.use(.debounce({ $0.hasPrefix("type") }, for: 1))
        child.use(logging("child", ([String], Int).self))
        let grandchild = child.with(0) { _, _ in }
        grandchild.use(logging("grandchild", (([String], Int), Int).self))
        await grandchild.send("a")
        await grandchild.send("type b")
        scheduler.advance(by: 1)
        let state = await waitForState(root) { $0.count == 2 }
        #expect(state == ["a", "type b"])
        #expect(
            seen.values == [
                "root a", "child a", "grandchild a",
                "root type b",
                "child type b", "grandchild type b",
            ]
        )
        // The debounce lets the action go to the grandchild, which must still be in the tree then, and
        // Swift may release a local right after its last use: the grandchild is held until then.
        withExtendedLifetime(grandchild) {}
    }
}
