import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

/// The examples of Docs/Pipeline.md, kept compiling and checked: each test holds one example as the
/// guide shows it, then checks what the guide says it does. Time goes through a `ManualScheduler`.
@Suite(.timeLimit(.minutes(1))) struct PipelineDocExamplesTests {
    // MARK: Overview

    enum BoardAction: Equatable, Sendable {
        case add(title: String)
        case search(String)
        case results([String])
        case sync
        case showError(String)
    }

    struct Board: Sendable {
        var tasks: [String] = []
        var results: [String] = []
        var syncs = 0
        var message: String?

        static func reduce(_ board: inout Board, _ action: BoardAction) {
            switch action {
            case .add(let title): board.tasks.append(title)
            case .search: break
            case .results(let found): board.results = found
            case .sync: board.syncs += 1
            case .showError(let text): board.message = text
            }
        }
    }

    /// The guide's search service.
    struct SearchIndex: Sendable {
        func search(_ text: String) async throws -> [String] { ["found \(text)"] }
    }

    static let index = SearchIndex()

    @Test func overview() async {
        let index = Self.index
        let validate = Middleware<Board, BoardAction>("validate") { action, context in
            if case .add(let title) = action, title.isEmpty {
                context.dispatch(.showError("A task needs a title"))
                return  // not forwarded: blocked
            }
            context.next(action)
        }

        let search = Middleware<Board, BoardAction>("search") { action, context in
            if case .search(let text) = action {
                context.run(id: "search", cancelInFlight: true) { task in
                    try await task.sleep(for: 0.3)  // allowed: the store's manual clock
                    task.send(.results(try await index.search(text)))
                }
            }
            context.next(action)
        }

        let clock = ManualScheduler()
        let store = StateStore(
            Board(),
            qos: .userInitiated,
            scheduler: clock,  // the guide leaves it out: the default is the real clock
            middlewares: [validate, .throttle({ if case .sync = $0 { true } else { false } }, for: 5), search],
            reducer: Board.reduce
        )

        let outcomes = StateRecorder<String>()
        store.dispatch(.add(title: "")) { outcome in
            // .blocked: the validator did not forward it; `message` is set by the .showError it queued
            outcomes.record(Self.describe(outcome))
        }
        #expect(await outcomes.waitFor(count: 1) == ["blocked"])
        let board = await store.state
        #expect(board.tasks.isEmpty)
        #expect(board.message == "A task needs a title")

        #expect(Self.describe(await Self.outcome(of: .sync, on: store)) == "reduced")
        #expect(Self.describe(await Self.outcome(of: .sync, on: store)) == "blocked", "within 5 s")
        clock.advance(by: 5)
        #expect(Self.describe(await Self.outcome(of: .sync, on: store)) == "reduced")

        await store.send(.search("milk"))
        await waitUntilScheduled(clock, count: 1)
        clock.advance(by: 0.3)
        #expect(await waitForState(store) { $0.results == ["found milk"] }.results == ["found milk"])
    }

    // MARK: Middleware

    enum CounterAction: Equatable, Sendable {
        case reset
        case add(Int)
        case logAdded
        case importFile(String)
    }

    struct Counter: Sendable {
        var value = 0
        var isLocked = false
        var log = 0

        static func reduce(_ counter: inout Counter, _ action: CounterAction) {
            switch action {
            case .reset: counter.value = 0
            case .add(let amount): counter.value += amount
            case .logAdded: counter.log += 1
            case .importFile: break
            }
        }
    }

    enum ImportError: Error { case notJSON(String) }

    @Test func middlewareDecidesTheOutcome() async {
        let policy = Middleware<Counter, CounterAction>("policy") { action, context in
            switch action {
            case .reset where context.state.isLocked:
                return  // block: no reducer runs
            case .add(let amount) where amount > 100:
                context.next(.add(100))  // transform: the reducers see .add(100)
            case .add:
                context.next(action)  // forward
                context.dispatch(.logAdded)  // and queue a follow-up
            case .importFile(let path):
                guard path.hasSuffix(".json") else { throw ImportError.notJSON(path) }  // fail
                context.next(action)
            default:
                context.next(action)
            }
        }
        let store = StateStore(Counter(isLocked: true), middlewares: [policy], reducer: Counter.reduce)
        #expect(Self.describe(await Self.outcome(of: .add(500), on: store)) == "reduced")
        #expect(await store.state.value == 100)
        #expect(Self.describe(await Self.outcome(of: .reset, on: store)) == "blocked")
        #expect(Self.describe(await Self.outcome(of: .add(1), on: store)) == "reduced")
        #expect(Self.describe(await Self.outcome(of: .importFile("a.txt"), on: store)) == "failed notJSON(\"a.txt\")")
        let counter = await store.state
        #expect(counter.value == 101)
        #expect(counter.log == 1, "the follow-up of add(1) was reduced after it")
    }

    struct App: Sendable {
        var seen: [String] = []
        static func reduce(_ app: inout App, _ action: String) { app.seen.append(action) }
    }

    struct Profile: Sendable {
        var name = ""
        static func reduce(_ profile: inout Profile, _ action: String) {
            if action.hasPrefix("name ") { profile.name = String(action.dropFirst(5)) }
        }
    }

    @Test func rootMiddlewareRunsBeforeAChildsAndSeesEveryAction() async {
        let order = StateRecorder<String>()
        let audit = Middleware<App, String>("audit") { action, context in
            order.record("audit \(action) for \(context.target)")
            context.next(action)
        }
        let validateName = Middleware<(App, Profile), String>("validateName") { action, context in
            order.record("validateName \(action)")
            if action == "name " { return }
            context.next(action)
        }
        let root = StateStore(App(), middlewares: [audit], reducer: App.reduce)  // every action of the tree
        let profile = root.with(Profile(), reducer: Profile.reduce)
        profile.use(validateName)  // the actions sent to `profile` and its children, after `audit`

        await root.send("hello")
        await profile.send("name Ada")
        await profile.send("name ")
        #expect(
            await order.waitFor(count: 5) == [
                "audit hello for root", "audit name Ada for root/0", "validateName name Ada",
                "audit name  for root/0", "validateName name ",
            ]
        )
        let (app, me) = await profile.state
        #expect(app.seen == ["hello", "name Ada"])
        #expect(me.name == "Ada")
    }

    // MARK: Error resolvers

    struct OfflineError: Error {}

    @Test func errorResolvers() async {
        let offline = ErrorResolver<Board, BoardAction>("offline") { error, context in
            guard error is OfflineError else { return .forward(error) }
            context.dispatch(.showError("You are offline; \(context.action) will be retried"))
            return .resolved
        }
        let push = Middleware<Board, BoardAction>("push") { action, context in
            if case .sync = action { throw OfflineError() }
            context.next(action)
        }
        let store = StateStore(Board(), middlewares: [push], resolvers: [offline], reducer: Board.reduce)
        let outcome = await Self.outcome(of: .sync, on: store)
        guard case .failed(let error) = outcome else {
            Issue.record("expected .failed, got \(Self.describe(outcome))")
            return
        }
        #expect(error is OfflineError, "the dispatch fails with what the middleware threw")
        let board = await store.state
        #expect(board.message == "You are offline; sync will be retried")
        #expect(board.syncs == 0)
    }

    // MARK: Dispatch outcomes

    @Test func dispatchOutcomes() async {
        let printed = StateRecorder<String>()
        let print: @Sendable (String) -> Void = { printed.record($0) }
        let store = StateStore(
            Board(),
            middlewares: [
                .init("validate") { action, context in
                    if case .add(let title) = action, title.isEmpty { return }
                    context.next(action)
                }
            ],
            reducer: Board.reduce
        )
        for title in ["Ship", ""] {
            store.dispatch(.add(title: title)) { outcome in
                switch outcome {
                case .reduced(let board): print("\(board.tasks.count) tasks")
                case .blocked: print("not added")
                case .failed(let error): print("failed: \(error)")
                }
            }
        }
        #expect(await printed.waitFor(count: 2) == ["1 tasks", "not added"])

        let outcome = await withCheckedContinuation { continuation in
            store.dispatch(.add(title: "")) { continuation.resume(returning: $0) }
        }
        #expect(Self.describe(outcome) == "blocked")
    }

    // MARK: Work by id

    enum SearchAction: Equatable, Sendable {
        case query(String)
        case results([String])
        case clear
    }

    struct SearchState: Sendable {
        var queries: [String] = []
        var results: [String] = []

        static func reduce(_ state: inout SearchState, _ action: SearchAction) {
            switch action {
            case .query(let text): state.queries.append(text)
            case .results(let found): state.results += found
            case .clear: break
            }
        }
    }

    @Test func workById() async {
        let index = Self.index
        let search = Middleware<SearchState, SearchAction>("search") { action, context in
            switch action {
            case .query(let text):
                context.run(id: "search", cancelInFlight: true) { task in  // only the last search matters
                    try await task.sleep(for: 0.3)  // allowed: the store's manual clock
                    task.send(.results(try await index.search(text)))
                }
            case .clear:
                context.cancel(id: "search")
            default:
                break
            }
            context.next(action)
        }
        let clock = ManualScheduler()
        let store = StateStore(SearchState(), scheduler: clock, middlewares: [search], reducer: SearchState.reduce)

        await store.send(.query("mi"))
        await waitUntilScheduled(clock, count: 1)
        clock.advance(by: 0.3)
        #expect(await waitForState(store) { !$0.results.isEmpty }.results == ["found mi"])

        await store.send(.query("milk"))
        await waitUntilScheduled(clock, count: 1)
        await store.send(.clear)  // cancels the run of "milk", asleep: its sleep is removed from the clock
        // By the sleeping task, which may still be on its way into the sleep when the cancel comes.
        await waitUntil("the cleared sleep off the clock") { clock.pendingCount == 0 }
        await store.send(.query("oat"))
        await waitUntilScheduled(clock, count: 1)
        clock.advance(by: 0.3)
        let state = await waitForState(store) { $0.results.count == 2 }
        #expect(state.results == ["found mi", "found oat"], "the cleared search never delivered")
    }

    // MARK: Rate limits

    @Test func rateLimits() async {
        let syncer = Middleware<Board, BoardAction>("syncer") { action, context in
            if case .sync = action {
                // A long sync, on the store's manual clock.
                context.run(id: "sync") { task in try await task.sleep(for: 60) }  // allowed: manual clock
            }
            context.next(action)
        }
        let clock = ManualScheduler()
        let searched = StateRecorder<String>()
        let store = StateStore(
            Board(),
            scheduler: clock,  // the guide leaves it out: the default is the real clock
            middlewares: [
                .throttle(isSync, for: 5),  // at most one sync per 5 s; the others are blocked
                .debounce(isSearch, for: 0.3),  // the last search after 0.3 s of quiet
                .maxInFlight(isSync, id: "sync", limit: 1),  // no new sync while one runs
                syncer,  // starts the work under "sync"
                .init("searched") { action, context in
                    if case .search(let text) = action { searched.record(text) }
                    context.next(action)
                },
            ],
            reducer: Board.reduce
        )
        #expect(Self.describe(await Self.outcome(of: .sync, on: store)) == "reduced")
        #expect(Self.describe(await Self.outcome(of: .sync, on: store)) == "blocked", "throttled")
        clock.advance(by: 5)
        #expect(Self.describe(await Self.outcome(of: .sync, on: store)) == "blocked", "the first still runs")

        #expect(Self.describe(await Self.outcome(of: .search("m"), on: store)) == "blocked", "held")
        clock.advance(by: 0.2)
        _ = await Self.outcome(of: .search("mi"), on: store)
        clock.advance(by: 0.2)
        #expect(searched.values.isEmpty)
        clock.advance(by: 0.1)
        #expect(await searched.waitFor(count: 1) == ["mi"])
        // The debounce runs on the store's tree, which ends with the store, and Swift may release a local
        // right after its last use: the store is held until the search is seen.
        withExtendedLifetime(store) {}
    }

    // MARK: Diagnostics and cycle detection

    struct StreamDiagnostics: StoreDiagnostics {
        let continuation: AsyncStream<String>.Continuation

        func record(_ event: StoreEvent) {
            continuation.yield("\(event)")  // quick and thread-safe: copy the event and hand it on
        }
    }

    @Test func diagnostics() async {
        let (events, continuation) = AsyncStream.makeStream(of: String.self)
        let diagnostics = StreamDiagnostics(continuation: continuation)
        let store = StateStore(Board(), middlewares: [], diagnostics: diagnostics, reducer: Board.reduce)
        await store.send(.add(title: "Ship"))
        var lines: [String] = []
        for await line in events {
            lines.append(line)
            if line.contains("reduced") { break }
        }
        #expect(lines.first == #"root received add(title: "Ship")"#)
        #expect(lines.last?.hasPrefix(#"root reduced add(title: "Ship") in "#) == true)

        let limited = StateStore(
            Board(),
            middlewares: [],
            diagnostics: diagnostics,
            cycleDetection: CycleDetection(maxDepth: 16, maxPerWindow: 200, window: 1),
            reducer: Board.reduce
        )
        await limited.send(.sync)
    }

    enum Ping: Sendable { case ping(Int) }

    @Test func aTooDeepChainIsReportedOnceWithItsChainAndEveryActionIsReduced() async {
        let (events, continuation) = AsyncStream.makeStream(of: String.self)
        let store = StateStore<Int, Ping>(
            0,
            middlewares: [
                .init("echo") { action, context in
                    if case .ping(let n) = action, n < 10 { context.dispatch(.ping(n + 1)) }
                    context.next(action)
                }
            ],
            diagnostics: StreamDiagnostics(continuation: continuation),
            cycleDetection: CycleDetection(maxDepth: 4, maxPerWindow: nil),
            reducer: { count, _ in count += 1 }
        )
        await store.send(.ping(0))
        #expect(await waitForState(store) { $0 == 11 } == 11)
        continuation.finish()
        var cycles: [String] = []
        for await line in events where line.contains("cycle") { cycles.append(line) }
        #expect(cycles == ["root cycle: chain of 5 actions (limit 4): ping → ping → ping → ping → ping"])
    }

    // MARK: Limits

    @Test func followUpsGoToTheNodeTheActionWasSentTo() async {
        let followUp = Middleware<App, String>("follow-up") { action, context in
            if action == "name Ada" { context.dispatch("name Bob") }
            context.next(action)
        }
        let root = StateStore(App(), middlewares: [followUp], reducer: App.reduce)
        let profile = root.with(Profile(), reducer: Profile.reduce)
        await profile.send("name Ada")
        let (app, me) = await waitForState(profile) { $0.0.seen.count == 2 }
        #expect(app.seen == ["name Ada", "name Bob"])
        #expect(me.name == "Bob", "the child the first action was sent to received the follow-up")
    }

    @Test func aMapActionsTranslationHidesActionsBelowItFromMiddlewareAboveIt() async {
        let seen = StateRecorder<String>()
        let root = StateStore(
            App(),
            middlewares: [
                .init("audit") { action, context in
                    seen.record(action)
                    context.next(action)
                }
            ],
            reducer: App.reduce
        )
        let numbers = root.map(actions: { (number: Int) in "number \(number)" })
        let counter = numbers.with(0) { count, number in count += number }
        await counter.send(5)
        await root.send("hello")
        let (app, count) = await counter.state
        #expect(count == 5)
        #expect(app.seen == ["number 5", "hello"], "the root reducer ran with the translated action")
        #expect(await seen.waitFor(count: 1) == ["hello"], "the root middleware saw only the root's action")
    }

    // MARK: Helpers

    static func outcome<State: Sendable, Action>(
        of action: Action,
        on store: StateStore<State, Action>
    ) async -> DispatchOutcome<State> {
        await withCheckedContinuation { continuation in
            store.dispatch(action) { continuation.resume(returning: $0) }
        }
    }

    static func describe<State>(_ outcome: DispatchOutcome<State>) -> String {
        switch outcome {
        case .reduced: "reduced"
        case .blocked: "blocked"
        case .failed(let error): "failed \(error)"
        }
    }
}

/// The "Composing reducers" example of Docs/Pipeline.md, with its own `Board`.
@Suite struct PipelineDocCompositionTests {
    struct Filter: Equatable, Sendable {
        var text = ""
        static func reduce(_ filter: inout Filter, _ action: FilterAction) {
            if case .set(let text) = action { filter.text = text }
        }
    }

    enum FilterAction: Sendable { case set(String) }

    struct TaskItem: Identifiable, Equatable, Sendable {
        let id: Int
        var done = false
        static func reduce(_ task: inout TaskItem, _ action: TaskAction) {
            if case .toggle = action { task.done.toggle() }
        }
    }

    enum TaskAction: Sendable { case toggle }

    struct Editor: Equatable, Sendable {
        var draft = ""
        static func reduce(_ editor: inout Editor, _ action: EditorAction) {
            if case .type(let text) = action { editor.draft += text }
        }
    }

    enum EditorAction: Sendable { case type(String) }

    struct Board: Equatable, Sendable {
        var filter = Filter()
        var tasks: [TaskItem] = []
        var editor: Editor?
    }

    enum BoardAction: Sendable {
        case filter(FilterAction)
        case task(id: TaskItem.ID, TaskAction)
        case editor(EditorAction)
        case clearAll

        static func filterAction(_ action: Self) -> FilterAction? {
            if case .filter(let action) = action { action } else { nil }
        }
        static func taskAction(_ action: Self) -> (TaskItem.ID, TaskAction)? {
            if case .task(let id, let action) = action { (id, action) } else { nil }
        }
        static func editorAction(_ action: Self) -> EditorAction? {
            if case .editor(let action) = action { action } else { nil }
        }
    }

    @Test func composingReducers() {
        let boardReducer: Reducer<Board, BoardAction> = Reducers.combine(
            Reducers.scope(state: \.filter, action: BoardAction.filterAction, reducer: Filter.reduce),
            Reducers.forEach(\.tasks, action: BoardAction.taskAction, reducer: TaskItem.reduce),
            Reducers.ifLet(state: \.editor, action: BoardAction.editorAction, reducer: Editor.reduce),
            { board, action in if case .clearAll = action { board.tasks.removeAll() } }
        )
        var board = Board(tasks: [TaskItem(id: 1), TaskItem(id: 2)])
        for action in [BoardAction.filter(.set("ship")), .task(id: 2, .toggle), .editor(.type("x"))] {
            boardReducer(&board, action)
        }
        #expect(board == Board(filter: Filter(text: "ship"), tasks: [TaskItem(id: 1), TaskItem(id: 2, done: true)]))
        board.editor = Editor()
        boardReducer(&board, .editor(.type("x")))
        boardReducer(&board, .clearAll)
        #expect(board == Board(filter: Filter(text: "ship"), tasks: [], editor: Editor(draft: "x")))
    }
}

// The guide declares these at the top level, where functions are `Sendable`.
private func isSync(_ action: PipelineDocExamplesTests.BoardAction) -> Bool {
    if case .sync = action { true } else { false }
}
private func isSearch(_ action: PipelineDocExamplesTests.BoardAction) -> Bool {
    if case .search = action { true } else { false }
}
