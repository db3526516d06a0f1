import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

/// The pipeline as a store runs it: middleware before the reducers, outcomes, resolvers, work by id,
/// rate limits on the manual clock, diagnostics and cycle reports.
@Suite(.timeLimit(.minutes(1))) struct StorePipelineTests {
    enum Action: Sendable, Equatable {
        case add(Int)
        case record(String)
        case fail
        case recover
        case search(String)
        case found(String)
        case ping(Int)
    }

    struct Failure: Error, Equatable {}

    /// Keeps what the middleware and reducers did, in order.
    private static func reducer(_ log: StateRecorder<String>) -> Reducer<[String], Action> {
        { state, action in
            log.record("reduce \(action)")
            state.append("\(action)")
        }
    }

    @Test func middlewareRunsInOrderBeforeTheReducerWithTheStateBefore() async {
        let log = StateRecorder<String>()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("first") { action, context in
                    log.record("first \(action) on \(context.state.count) at \(context.target)")
                    context.next(action)
                },
                Middleware("second") { action, context in
                    log.record("second \(action)")
                    context.next(action)
                },
            ],
            reducer: Self.reducer(log)
        )
        await store.send(.add(1))
        await store.send(.add(2))
        #expect(
            log.values == [
                "first add(1) on 0 at root", "second add(1)", "reduce add(1)",
                "first add(2) on 1 at root", "second add(2)", "reduce add(2)",
            ]
        )
    }

    @Test func aMiddlewareCanBlockTransformAndDispatch() async {
        let log = StateRecorder<String>()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("rules") { action, context in
                    switch action {
                    case .add(let value) where value < 0:
                        return  // blocked
                    case .add(let value) where value > 100:
                        context.next(.add(100))  // transformed
                    case .record:
                        context.dispatch(.add(7))  // queued after this action
                        context.next(action)
                    default:
                        context.next(action)
                    }
                }
            ],
            reducer: Self.reducer(log)
        )
        await store.send(.add(-1))
        await store.send(.add(500))
        await store.send(.record("x"))
        #expect(await store.state == ["add(100)", "record(\"x\")", "add(7)"])
    }

    @Test func dispatchWithACompletionReportsEachOutcome() async {
        let outcomes = StateRecorder<String>()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("gate") { action, context in
                    if action == .fail { throw Failure() }
                    if action == .add(0) { return }
                    context.next(action)
                }
            ],
            reducer: Self.reducer(StateRecorder())
        )
        let record: @Sendable (DispatchOutcome<[String]>) -> Void = { outcome in
            switch outcome {
            case .reduced(let state): outcomes.record("reduced \(state.count)")
            case .blocked: outcomes.record("blocked")
            case .failed(let error): outcomes.record("failed \(error is Failure)")
            }
        }
        store.dispatch(.add(1), completion: record)
        store.dispatch(.add(0), completion: record)
        store.dispatch(.fail, completion: record)
        store.eraseToAnyStore().dispatch(.add(2), completion: record)
        #expect(await outcomes.waitFor(count: 4) == ["reduced 1", "blocked", "failed true", "reduced 2"])
    }

    @Test func aResolverTurnsAThrownErrorIntoARecoveryActionAndTheRestReachDiagnostics() async {
        let events = EventRecorder()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("thrower") { action, context in
                    if action == .fail { throw Failure() }
                    if action == .record("unhandled") { throw CancellationError() }
                    context.next(action)
                }
            ],
            resolvers: [
                ErrorResolver("recover") { error, context in
                    guard error is Failure else { return .forward(error) }
                    context.dispatch(.recover)
                    return .resolved
                }
            ],
            diagnostics: events,
            reducer: Self.reducer(StateRecorder())
        )
        await store.send(.fail)
        await store.send(.record("unhandled"))
        #expect(await store.state == ["recover"])
        #expect(events.lines.filter { $0.contains("unhandled error") }.count == 1)
    }

    struct Translated: Error, Equatable { let detail: String }

    /// What `.failed` carries when a middleware throws `Failure` into `resolvers`: the detail of a
    /// `Translated` error, or the error's type.
    private static func failedError(through resolvers: [ErrorResolver<[String], Action>]) async -> [String] {
        let outcomes = StateRecorder<String>()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [Middleware("thrower") { _, _ in throw Failure() }],
            resolvers: resolvers,
            reducer: Self.reducer(StateRecorder())
        )
        store.dispatch(.fail) { outcome in
            guard case .failed(let error) = outcome else { return outcomes.record("not failed") }
            outcomes.record((error as? Translated)?.detail ?? "\(type(of: error))")
        }
        return await outcomes.waitFor(count: 1)
    }

    @Test func aFailedOutcomeCarriesTheErrorTheResolversForwarded() async {
        let translated = await Self.failedError(through: [
            ErrorResolver("translate") { error, _ in
                .forward(error is Failure ? Translated(detail: "translated") : error)
            },
            ErrorResolver("handle others") { error, _ in
                (error as? Translated)?.detail == "resolved" ? .resolved : .forward(error)
            },
        ])
        #expect(translated == ["translated"])
        #expect(await Self.failedError(through: []) == ["Failure"])
    }

    @Test func anErrorAResolverResolvesAfterAnotherForwardedItIsTheForwardedOne() async {
        let translated = await Self.failedError(through: [
            ErrorResolver("translate") { _, _ in .forward(Translated(detail: "translated")) },
            ErrorResolver("resolve") { _, _ in .resolved },
        ])
        #expect(translated == ["translated"])
    }

    @Test func rootMiddlewareRunsBeforeAChildsAndSeesTheChildsActions() async {
        let log = StateRecorder<String>()
        let root = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("root") { action, context in
                    log.record("root sees \(action) for \(context.target)")
                    context.next(action)
                }
            ],
            reducer: { _, _ in }
        )
        let child = root.with(0) { count, _ in count += 1 }
        child.use(
            Middleware("child") { action, context in
                log.record("child sees \(action)")
                context.next(action)
            }
        )
        await child.send(.add(1))
        await root.send(.add(2))
        #expect(log.values == ["root sees add(1) for root/0", "child sees add(1)", "root sees add(2) for root"])
        #expect(await child.state.1 == 1)
    }

    /// A chain below the root names the store each action was sent to: its own, or the one below it
    /// that the action came up from.
    @Test func aChildsMiddlewareNamesTheStoreEachActionWasSentTo() async {
        let log = StateRecorder<String>()
        let root = StateStore<[String], Action>([], reducer: { _, _ in })
        let child = root.with(0) { count, _ in count += 1 }
        child.use(
            Middleware("child") { action, context in
                log.record("\(action) for \(context.target)")
                context.next(action)
            }
        )
        let grandchild = child.with(0) { count, _ in count += 1 }
        await grandchild.send(.add(1))
        await child.send(.add(2))
        await grandchild.send(.add(3))
        #expect(log.values == ["add(1) for root/0/0", "add(2) for root/0", "add(3) for root/0/0"])
    }

    /// A chain reads the state of the store it is attached to: the child's middleware gets the child's
    /// state type, the root's the root's, each as it was before the action.
    @Test func eachMiddlewareReadsTheStateOfItsOwnStore() async {
        let log = StateRecorder<String>()
        let root = StateStore<[String], Action>(
            ["r"],
            middlewares: [
                Middleware("root") { action, context in
                    log.record("root \(context.state)")
                    context.next(action)
                }
            ],
            reducer: { state, action in state.append("\(action)") }
        )
        let child = root.with(10) { count, _ in count += 1 }
        child.use(
            Middleware("child") { action, context in
                log.record("child \(context.state.0) \(context.state.1)")
                context.next(action)
            }
        )
        await child.send(.add(1))
        await child.send(.add(2))
        #expect(
            log.values == [
                #"root ["r"]"#, #"child ["r"] 10"#,
                #"root ["r", "add(1)"]"#, #"child ["r", "add(1)"] 11"#,
            ]
        )
    }

    @Test func startingWorkUnderABusyIdCancelsTheOldRunAndDropsItsLateResults() async {
        let scheduler = ManualScheduler()
        let started = StateRecorder<String>()
        let cancelled = StateRecorder<String>()
        let store = StateStore<[String], Action>(
            [],
            scheduler: scheduler,
            middlewares: [
                Middleware("search") { action, context in
                    if case .search(let query) = action {
                        context.run(id: "search", cancelInFlight: true) { task in
                            started.record(query)
                            do {
                                try await task.sleep(for: 1)  // allowed: the manual clock
                            } catch {
                                cancelled.record(query)
                                throw error
                            }
                            task.send(.found(query))
                        }
                    }
                    context.next(action)
                }
            ],
            reducer: Self.reducer(StateRecorder())
        )
        await store.send(.search("a"))
        _ = await started.waitFor(count: 1)
        await store.send(.search("ab"))
        _ = await started.waitFor(count: 2)
        // Once the sleep of "a" has thrown, nothing of it is on the clock: the work there is "ab"'s.
        #expect(await cancelled.waitFor(count: 1) == ["a"])
        await waitUntilScheduled(scheduler, count: 1)
        scheduler.advance(by: 1)
        let final = await waitForState(store) { $0.contains("found(\"ab\")") }
        #expect(final == ["search(\"a\")", "search(\"ab\")", "found(\"ab\")"])
    }

    @Test func throttleLetsTheFirstThroughAndBlocksRepeatsWithinTheInterval() async {
        let scheduler = ManualScheduler()
        let store = StateStore<[String], Action>(
            [],
            scheduler: scheduler,
            middlewares: [.throttle({ if case .ping = $0 { true } else { false } }, for: 1)],
            reducer: Self.reducer(StateRecorder())
        )
        await store.send(.ping(1))
        await store.send(.ping(2))
        await store.send(.add(1))
        scheduler.advance(by: 1)
        await store.send(.ping(3))
        #expect(await store.state == ["ping(1)", "add(1)", "ping(3)"])
    }

    @Test func diagnosticsHearOfReceivedReducedAndBlockedActions() async {
        let events = EventRecorder()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("no negatives") { action, context in if action != .add(-1) { context.next(action) } }
            ],
            diagnostics: events,
            reducer: Self.reducer(StateRecorder())
        )
        await store.send(.add(1))
        await store.send(.add(-1))
        let lines = events.lines
        #expect(lines.contains("root received add(1)"))
        #expect(lines.contains { $0.hasPrefix("root reduced add(1) in ") })
        #expect(lines.contains("root blocked add(-1) in middleware \"no negatives\""))
        #expect(!lines.contains { $0.hasPrefix("root reduced add(-1)") })
    }

    @Test func aChainDeeperThanTheLimitIsReportedAndNoActionIsDropped() async {
        let events = EventRecorder()
        let store = StateStore<[String], Action>(
            [],
            middlewares: [
                Middleware("echo") { action, context in
                    if case .ping(let n) = action, n < 5 { context.dispatch(.ping(n + 1)) }
                    context.next(action)
                }
            ],
            diagnostics: events,
            cycleDetection: CycleDetection(maxDepth: 3, maxPerWindow: nil),
            reducer: Self.reducer(StateRecorder())
        )
        await store.send(.ping(1))
        let final = await waitForState(store) { $0.count == 5 }
        #expect(final.count == 5)
        let cycles = events.lines.filter {
            $0.contains("cycle: chain of 4 actions (limit 3): ping → ping → ping → ping")
        }
        #expect(cycles.count == 1)
    }

    @Test func releasingTheStoreCancelsItsWorkById() async {
        let started = StateRecorder<Bool>()
        let cancelled = StateRecorder<Bool>()
        var store: StateStore<[String], Action>? = StateStore(
            [],
            middlewares: [
                Middleware("work") { action, context in
                    context.run(id: 1) { task in
                        started.record(true)
                        // Waits on the tree's clock until the run is cancelled, which ends the wait.
                        do {
                            try await task.sleep(for: 3_600)  // allowed: ended by cancellation, not time
                        } catch {
                            cancelled.record(error is CancellationError)
                        }
                    }
                    context.next(action)
                }
            ],
            reducer: Self.reducer(StateRecorder())
        )
        await store?.send(.add(1))
        // The store goes only once the run is under way: what this test checks is that letting go of
        // the store cancels a running task (on one busy core, the task may not have begun yet).
        _ = await started.waitFor(count: 1)
        store = nil
        #expect(await cancelled.waitFor(count: 1) == [true])
    }
}

/// Records every diagnostics event as its one-line description.
private final class EventRecorder: StoreDiagnostics {
    private let recorded = LockedValue<[String]>([])

    var lines: [String] { recorded.withLock { $0 } }

    func record(_ event: StoreEvent) {
        let line = event.description
        recorded.withLock { $0.append(line) }
    }
}

@Suite struct StoreIDTests {
    @Test func storesAreNamedByTheirPlaceInTheTree() {
        let root = StateStore<Int, Int>(0) { _, _ in }
        let first = root.with(0) { _, _ in }
        let second = root.with(0) { _, _ in }
        let grandchild = second.with("") { _, _ in }
        #expect(root.storeID.description == "root")
        #expect(first.storeID.description == "root/0")
        #expect(grandchild.storeID == StoreID(path: [1, 0]))
        #expect(second.map(state: \.1).storeID == second.storeID)
        #expect(second.weakStore().storeID == second.storeID)
    }
}

@Suite(.timeLimit(.minutes(1))) struct ErrorResolverRoutingTests {
    struct Failure: Error {}

    @Test func aRecoveryDispatchedLaterFromATaskReachesTheStoreTheFailedActionWasSentTo() async {
        let root = StateStore<[String], String>(
            [],
            middlewares: [
                Middleware("fails") { action, context in
                    if action == "save" { throw Failure() }
                    context.next(action)
                }
            ],
            resolvers: [
                ErrorResolver("retry later") { _, context in
                    Task { context.dispatch("recovered") }  // from another thread, after the stage
                    return .resolved
                }
            ],
            reducer: { state, action in state.append(action) }
        )
        let child = root.with([String]()) { local, action in local.append(action) }
        await child.send("save")
        let state = await waitForState(child) { !$0.1.isEmpty }
        #expect(state.1 == ["recovered"])
        #expect(state.0 == ["recovered"])
    }
}

@Suite(.timeLimit(.minutes(1))) struct WorkByIDPerStoreTests {
    @Test func theSameIDForTwoStoresNamesTwoIndependentRuns() async {
        let scheduler = ManualScheduler()
        let root = StateStore<[String], String>(
            [],
            scheduler: scheduler,
            middlewares: [
                Middleware("load") { action, context in
                    if action == "load" {
                        context.run(id: "load", cancelInFlight: true) { task in
                            try await task.sleep(for: 1)  // allowed: the manual clock
                            task.send("loaded")
                        }
                    }
                    context.next(action)
                }
            ],
            reducer: { state, action in state.append(action) }
        )
        let first = root.with([String]()) { local, action in local.append(action) }
        let second = root.with([String]()) { local, action in local.append(action) }
        await first.send("load")
        await second.send("load")  // same id, another store: the first run goes on
        await waitUntilScheduled(scheduler, count: 2)
        scheduler.advance(by: 1)
        var states = (await first.state.1, await second.state.1)
        await waitUntil("both runs' results") {
            states = (await first.state.1, await second.state.1)
            return states.0.count >= 2 && states.1.count >= 2
        }
        #expect(states.0 == ["load", "loaded"])
        #expect(states.1 == ["load", "loaded"])
    }
}
