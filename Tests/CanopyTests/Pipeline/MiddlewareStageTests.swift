import CanopyTestSupport
import Synchronization
import Testing

@testable import Canopy

/// The middleware stage as the engine runs it for a store: the action handled in its inbox slot, the
/// first middleware called by the engine, the chains of a path run root first. (`MiddlewareChainTests`
/// drive a chain on its own, without the engine.)
@Suite(.timeLimit(.minutes(1))) struct MiddlewareStageTests {
    /// Counts its live instances, so a test can tell that every action was destroyed exactly once.
    private final class Counted: Sendable {
        static let live = Atomic<Int>(0)
        let number: Int

        init(_ number: Int) {
            self.number = number
            Self.live.add(1, ordering: .relaxed)
        }

        deinit {
            Self.live.subtract(1, ordering: .relaxed)
        }
    }

    private struct Payload: Sendable {
        let counted: Counted
        var number: Int { counted.number }

        init(_ number: Int) {
            counted = Counted(number)
        }
    }

    private struct Failure: Error {}

    /// An action passed on, replaced, blocked, or failed before or after `next`, in the root's chain or
    /// a child's, is destroyed once, with whatever replaced it: the stage works on the action where the
    /// inbox keeps it, and the chain's forwarded action moves into it.
    @Test func everyActionAndEveryReplacementIsDestroyedOnce() async {
        let before = Counted.live.load(ordering: .relaxed)
        let outcomes = StateRecorder<String>()
        do {
            let root = StateStore<Int, Payload>(
                0,
                middlewares: [
                    Middleware("root") { action, context in
                        switch action.number {
                        case 1: context.next(Payload(10))  // replaced
                        case 2: return  // blocked
                        case 3:
                            context.next(action)
                            throw Failure()  // fails after passing it on
                        case 4: throw Failure()  // fails before
                        default: context.next(action)
                        }
                    },
                    Middleware("pass") { action, context in context.next(action) },
                ],
                reducer: { state, action in state += action.number }
            )
            let child = root.with(0) { _, _ in }
            child.use(
                Middleware("child") { action, context in
                    switch action.number {
                    case 10: return  // blocks what the root's chain replaced
                    case 5: context.next(Payload(50))
                    default: context.next(action)
                    }
                }
            )
            func send<State>(_ number: Int, to store: StateStore<State, Payload>) async {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    store.dispatch(Payload(number)) { outcome in
                        outcomes.record("\(number) \(outcome)")
                        done.resume()
                    }
                }
            }
            for number in 0...5 {
                await send(number, to: child)
                await send(number, to: root)
            }
            // 1 replaced by 10 at the root (the child blocks it), 5 replaced by 50 in the child's chain.
            #expect(await root.state == 10 + 50 + 5)
        }
        #expect(outcomes.values.count == 12)
        #expect(Counted.live.load(ordering: .relaxed) == before)
    }

    /// A chain run again while it runs (a middleware handing an action to its own store synchronously)
    /// is a programming error, stopped with a message, on the engine's path as on the chain's.
    @Test(.exitTest) func aChainRunFromInsideItselfTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let node = LockedValue<QueueBound<StateNode<Int, Int>>?>(nil)
            let store = StateStore<Int, Int>(
                0,
                middlewares: [
                    Middleware("again") { action, context in
                        if action == 1 { _ = node.withLock { $0 }?.onQueue.receive(2) }
                        context.next(action)
                    }
                ],
                reducer: { state, action in state += action }
            )
            node.withLock { $0 = store.handle.stateNode }
            _ = await store.send(1)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("a middleware chain was run from inside itself"))
    }

    /// `next` called twice traps naming the middleware when it is the first of a store's chain, which the
    /// engine calls itself.
    @Test(.exitTest) func callingNextTwiceInAStoresFirstMiddlewareTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = StateStore<Int, Int>(
                0,
                middlewares: [
                    Middleware("twice") { action, context in
                        context.next(action)
                        context.next(action)
                    },
                    Middleware("pass") { action, context in context.next(action) },
                ],
                reducer: { state, action in state += action }
            )
            _ = await store.send(1)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Middleware \"twice\" called next twice for one action"))
    }

    /// The same for a middleware after the first, which the first one's `next` calls.
    @Test(.exitTest) func callingNextTwiceInAFollowingMiddlewareTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let store = StateStore<Int, Int>(
                0,
                middlewares: [
                    Middleware("pass") { action, context in context.next(action) },
                    Middleware("twice") { action, context in
                        context.next(action)
                        context.next(action)
                    },
                ],
                reducer: { state, action in state += action }
            )
            _ = await store.send(1)
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Middleware \"twice\" called next twice for one action"))
    }

    /// Middleware on every level of a deep path: every chain runs once, the root's first. Past 16 chains
    /// the stage stops nesting and runs the rest in a loop, so the depth is not bounded by the drain
    /// thread's stack (measured separately: at 10,000 levels under a 512 KB stack, nesting once per
    /// chain overflowed it).
    @Test(arguments: [40, 2_000])
    func everyChainOnADeepPathRunsOnceRootFirst(depth: Int) async {
        let seen = StateRecorder<Int>()
        func recording<State>(_ level: Int, _: State.Type) -> Middleware<State, Int> {
            Middleware("level \(level)") { action, context in
                if depth <= 40 { seen.record(level) }
                context.next(action)
            }
        }
        let root = StateStore<Int, Int>(0, middlewares: [recording(0, Int.self)]) { state, action in
            state += action
        }
        var leaf = root
        for level in 1...depth {
            let child = leaf.with(0) { local, action in local += action }
            child.use(recording(level, (Int, Int).self))
            leaf = child.map(state: { $0.0 + $0.1 })
        }
        #expect(await leaf.send(1) == depth + 1)
        if depth <= 40 {
            #expect(seen.values == Array(0...depth))
        }
    }

    /// The walk up skips the stores without middleware, through a `map(state:)` view too: an action to a
    /// great-grandchild meets the root's chain, then the grandchild's, and the one it replaced reaches the
    /// reducers.
    @Test func theChainsOfAPathSkipTheStoresWithoutMiddleware() async {
        let seen = StateRecorder<String>()
        let root = StateStore<Int, Int>(
            0,
            middlewares: [
                Middleware("root") { action, context in
                    seen.record("root \(action)")
                    context.next(action * 10)
                }
            ],
            reducer: { state, action in state += action }
        )
        let child = root.with(0) { _, _ in }
        let view = child.map(state: { $0.0 })
        let grandchild = view.with(0) { _, _ in }
        grandchild.use(
            Middleware("grandchild") { action, context in
                seen.record("grandchild \(action)")
                context.next(action + 1)
            }
        )
        let greatGrandchild = grandchild.with(0) { local, action in local = action }
        let state = await greatGrandchild.send(2)
        #expect(seen.values == ["root 2", "grandchild 20"])
        #expect(state.1 == 21)
        #expect(await root.state == 21)
    }

    /// Each middleware runs in the dependency scope of the store it was attached in: the first of a
    /// chain, which the engine calls, and those after it, which `next` calls.
    @Test func theMiddlewareAfterTheFirstRunsInItsOwnDependencyScope() async {
        let seen = StateRecorder<String>()
        func recording(_ name: String) -> Middleware<Int, Int> {
            Middleware(name) { action, context in
                seen.record("\(name) \(Dependency[\.greeting])")
                context.next(action)
            }
        }
        let store = withDependencies {
            $0.greeting = "made"
        } operation: {
            StateStore<Int, Int>(0, middlewares: [recording("first"), recording("second")]) { state, action in
                state += action
            }
        }
        withDependencies {
            $0.greeting = "added"
        } operation: {
            store.use(recording("third"))
        }
        _ = await store.send(1)
        #expect(seen.values == ["first made", "second made", "third added"])
    }
}
