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
}
