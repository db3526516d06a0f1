public import Canopy

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A store for tests that asserts every change of state, every action effects send, and time.
///
/// Build it from the same reducer, child stores and effects the app uses, on the scheduler it hands
/// you: its clock is a `ManualScheduler` that moves only when the test says so (``advance(by:)``,
/// or ``receive(_:timeout:assert:fileID:filePath:line:column:)`` while it waits for an action).
///
/// ```swift
/// let store = TestStore(Counter(), reducer: Counter.reduce) { store, scheduler in
///     CounterEffects.attach(to: store, scheduler: scheduler)
/// }
/// await store.send(.startTimer) { $0.isTiming = true }
/// await store.receive(.tick) { $0.count = 1 }
/// await store.send(.stopTimer) { $0.isTiming = false }
/// await store.finish()
/// ```
///
/// Each `send` and `receive` compares the state after the action with the one the closure describes,
/// exhaustively by default (see ``exhaustivity``). A failure is reported to Swift Testing or XCTest,
/// whichever runs the test, at the line of the call, with a diff of the two states.
///
/// The test store tells the actions it sent from those effects sent through the root reducer of the
/// tree, so the tree's root must be created with the scheduler the store hands to `build`, and must
/// take the tested store's `Action` type.
public final class TestStore<State: Sendable, Action: Sendable>: Sendable {
    private struct Settings: Sendable {
        var exhaustivity: Exhaustivity
        var receiveTimeout: TimeInterval = 10
        var isFinished = false
        var realTimeLimit = Duration.seconds(30)
        /// The activity generation at which `settle()` last gave up waiting for busy effects.
        var gaveUpAt: UInt64?
    }

    let clock: TestClock
    let history: ActionHistory<State, Action>
    private let settings: LockedValue<Settings>
    /// Runs work on the tree's queue after everything sent before it. It holds the tested store, which
    /// keeps its ancestors, and so the tree, alive.
    let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    /// On the tree's queue: reduces an action as if dispatched to the tested store.
    let reduce: @Sendable (Action) -> Void
    private let createdAt: CallSite
    private let createdUnderSwiftTesting: Bool

    /// Creates a test store over a whole tree as the app builds it, asserting the part of the tested
    /// store's state that `observe` returns.
    ///
    /// Asserting a part keeps assertions about one feature free of the rest of the tree (a counter in
    /// the root that every action increments, say).
    ///
    /// ```swift
    /// let store = TestStore(observing: \SearchStoreState.1) { scheduler in
    ///     Board(environment: Environment(scheduler: scheduler)).search
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - observe: The part of the tested store's state that the test asserts.
    ///   - exhaustivity: How much each assertion checks.
    ///   - build: Builds the tree, its root created with `scheduler`, and returns the store to test.
    ///     Actions it dispatches are reduced before the test starts and are not asserted.
    ///   - fileID: Where the store is created; failures found when it is released point here.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public init<TreeState: Sendable>(
        observing observe: @escaping @Sendable (TreeState) -> State,
        exhaustivity: Exhaustivity = .on,
        build: (_ scheduler: any DelayScheduler) -> StateStore<TreeState, Action>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let history = ActionHistory<State, Action>()
        let clock = TestClock { action in history.rootReduced(action) }
        let store = build(clock)
        precondition(
            clock.roots == 1,
            "TestStore needs build to create exactly one root, with the scheduler it receives "
                + "(\(clock.roots) were created with it)"
        )
        store.subscribe(
            observer: Observer { state in
                history.observed(observe(state))
                return .active
            }
        )
        self.clock = clock
        self.history = history
        self.enqueue = { work in store.enqueueForTesting(work) }
        self.reduce = { action in store.reduceForTesting(action) }
        self.settings = LockedValue(Settings(exhaustivity: exhaustivity))
        self.createdAt = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        self.createdUnderSwiftTesting = TestFailure.isSwiftTesting
    }

    /// Creates a test store over a whole tree as the app builds it, asserting the whole state of the
    /// store that `build` returns.
    ///
    /// ```swift
    /// let store = TestStore { scheduler in
    ///     let root = StateStore(App(), scheduler: scheduler, reducer: App.reduce)
    ///     return root.with(Search(), reducer: Search.reduce)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - exhaustivity: How much each assertion checks.
    ///   - build: Builds the tree, its root created with `scheduler`, and returns the store to test.
    ///   - fileID: Where the store is created; failures found when it is released point here.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public convenience init(
        exhaustivity: Exhaustivity = .on,
        build: (_ scheduler: any DelayScheduler) -> StateStore<State, Action>,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            observing: { $0 },
            exhaustivity: exhaustivity,
            build: build,
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }

    /// Creates a test store over a root store with `reducer`, and the effects `effects` attaches.
    ///
    /// ```swift
    /// let store = TestStore(Search(), reducer: Search.reduce) { store, scheduler in
    ///     SearchEffects.attach(to: store, scheduler: scheduler)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - exhaustivity: How much each assertion checks.
    ///   - reducer: The root reducer.
    ///   - effects: Attaches effects to the store; their delays go through `scheduler`.
    ///   - fileID: Where the store is created; failures found when it is released point here.
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public convenience init(
        _ initialState: State,
        exhaustivity: Exhaustivity = .on,
        reducer: @escaping Reducer<State, Action>,
        effects: (_ store: StateStore<State, Action>, _ scheduler: any DelayScheduler) -> Void = { _, _ in },
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            exhaustivity: exhaustivity,
            build: { scheduler in
                let store = StateStore(initialState, scheduler: scheduler, reducer: reducer)
                effects(store, scheduler)
                return store
            },
            fileID: fileID,
            filePath: filePath,
            line: line,
            column: column
        )
    }

    deinit {
        guard !settings.withLock({ $0.isFinished }) else { return }
        reportLeftovers(at: createdAt, toSwiftTesting: createdUnderSwiftTesting)
    }

    // MARK: Settings and state

    /// How much each assertion checks; ``Exhaustivity/on`` unless set otherwise.
    public var exhaustivity: Exhaustivity {
        get { settings.withLock { $0.exhaustivity } }
        set { settings.withLock { $0.exhaustivity = newValue } }
    }

    /// How long, in seconds of the test clock, ``receive(_:timeout:assert:fileID:filePath:line:column:)``
    /// waits for an action when no `timeout` is given. 10 unless set otherwise.
    public var receiveTimeout: TimeInterval {
        get { settings.withLock { $0.receiveTimeout } }
        set {
            precondition(newValue >= 0, "TestStore.receiveTimeout must not be negative, got \(newValue)")
            settings.withLock { $0.receiveTimeout = newValue }
        }
    }

    /// The longest real time the store waits for effects that are busy without the clock (their task
    /// awaits something other than the test clock) before it gives up and records a failure. 30 seconds
    /// by default.
    ///
    /// A safety net, not a way to wait: an effect busy that long almost always waits for something no
    /// test controls (a real network call, a stream). The default leaves room for a machine whose cores
    /// are busy with other work; shorten it to see such a failure sooner.
    public var realTimeLimit: Duration {
        get { settings.withLock { $0.realTimeLimit } }
        set {
            precondition(newValue > .zero, "TestStore.realTimeLimit must be positive, got \(newValue)")
            settings.withLock { $0.realTimeLimit = newValue }
        }
    }

    /// The tested state as of the last action the store has seen reduced.
    public var state: State {
        guard let state = history.state else {
            preconditionFailure("Internal inconsistency: the TestStore's observer has not run yet")
        }
        return state
    }

    /// The clock of the tree: pass it where the app passes its scheduler (the `ManualScheduler`
    /// inside moves only with ``advance(by:)`` and `receive`).
    public var scheduler: any DelayScheduler {
        clock
    }

    /// The time of the test clock, in seconds since the store was created.
    public var now: TimeInterval {
        clock.now
    }

    // MARK: Sending

    /// Sends `action` to the tested store, reduces it, and checks the state after it against the one
    /// `assert` describes.
    ///
    /// `assert` receives the state before the action; it sets what the action changes. With
    /// ``Exhaustivity/on`` the whole state must then equal the actual one; with ``Exhaustivity/off``
    /// `assert` receives the actual state and only what it sets is checked (so assign values rather
    /// than mutate relatively). Without `assert`, the action must leave the state as it was.
    ///
    /// With ``Exhaustivity/on`` it is a failure to send while actions received from effects are not
    /// asserted.
    ///
    /// ```swift
    /// await store.send(.setQuery("milk")) {
    ///     $0.request = Request(text: "milk", serial: 1)
    ///     $0.phase = .debouncing
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - assert: Turns the state before the action into the expected state after it.
    ///   - fileID: The call site, where failures point (leave the default).
    ///   - filePath: See `fileID`.
    ///   - line: See `fileID`.
    ///   - column: See `fileID`.
    public func send(
        _ action: Action,
        assert: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        await settle()
        let unasserted = history.takeReceived()
        if !unasserted.isEmpty, exhaustivity == .on {
            TestFailure.record(
                "Must handle \(Self.count(unasserted.count, "received action")) before sending "
                    + "\(StateDump.line(of: action)):\n"
                    + Self.list(unasserted.map(\.action)),
                at: site
            )
        }
        let entry = await withCheckedContinuation { continuation in
            enqueue { [history, reduce] in
                history.beginSend()
                reduce(action)
                continuation.resume(returning: history.endSend())
            }
        }
        // A middleware may hold the action back (block it, throw, or debounce it): then nothing reached
        // the reducers, and the state must be as it was.
        guard let entry = entry ?? history.state.map({ ActionHistory.Entry(action: action, before: $0, after: $0) })
        else {
            preconditionFailure("Internal inconsistency: the TestStore has seen no state of its store")
        }
        check(entry, after: "send(\(StateDump.line(of: action)))", assert: assert, at: site)
    }

    // MARK: Checking

    /// Checks the state after `entry` against the one `assert` describes.
    func check(
        _ entry: ActionHistory<State, Action>.Entry,
        after call: String,
        assert: ((inout State) throws -> Void)?,
        at site: CallSite
    ) {
        var expected = exhaustivity == .on ? entry.before : entry.after
        do {
            try assert?(&expected)
        } catch {
            TestFailure.record("The assertion closure of \(call) threw \(error)", at: site)
            return
        }
        guard !StateComparison.areEqual(expected, entry.after) else { return }
        TestFailure.record(
            "State after \(call) differs from the expected state (- expected, + actual):\n"
                + StateComparison.diff(expected: expected, actual: entry.after),
            at: site
        )
    }

    /// Reports the received actions not asserted and the effects still running, when exhaustive.
    func reportLeftovers(at site: CallSite, toSwiftTesting: Bool = TestFailure.isSwiftTesting) {
        guard exhaustivity == .on else { return }
        let unasserted = history.takeReceived()
        if !unasserted.isEmpty {
            TestFailure.record(
                "\(Self.count(unasserted.count, "received action")) not asserted at the end of the test:\n"
                    + Self.list(unasserted.map(\.action)),
                at: site,
                toSwiftTesting: toSwiftTesting
            )
        }
        let running = clock.activity.runningCount
        if running > 0 {
            TestFailure.record(
                "\(Self.count(running, "effect")) still running at the end of the test: move the clock "
                    + "(advance(by:)) or send the actions that end \(running == 1 ? "it" : "them")",
                at: site,
                toSwiftTesting: toSwiftTesting
            )
        }
    }

    func gaveUp(at generation: UInt64) -> Bool {
        settings.withLock { $0.gaveUpAt == generation }
    }

    func givingUp(at generation: UInt64) {
        settings.withLock { $0.gaveUpAt = generation }
    }

    func markFinished() {
        settings.withLock { $0.isFinished = true }
    }

    static func count(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    static func list(_ actions: [Action]) -> String {
        actions.map { "  • " + StateDump.line(of: $0) }.joined(separator: "\n")
    }
}
