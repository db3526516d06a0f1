import Foundation
import Testing

@testable import Canopy

/// Recording a tree's actions and replaying them into a freshly built tree: round trips over random
/// action sequences, the errors a player reports with their line, and replay on the tree's clock.
@Suite(.timeLimit(.minutes(1))) struct ActionLogTests {
    enum Action: Codable, Sendable, Equatable {
        case add(Int)
        case rename(String)
        case toggle
        case clamp(Int)
    }

    /// A root with two children, the second with a child of its own: four stores on one queue.
    struct Tree {
        let root: StateStore<[String], Action>
        let first: StateStore<([String], Int), Action>
        let second: StateStore<([String], String), Action>
        let grandchild: StateStore<(([String], String), Bool), Action>

        var targets: [ReplayTarget<Action>] {
            [ReplayTarget(root), ReplayTarget(first), ReplayTarget(second), ReplayTarget(grandchild.eraseToAnyStore())]
        }

        /// Sends `action` and returns once it and the follow-up it may cause were handled.
        func sendAndSettle(_ action: Action, to index: Int) async {
            switch index {
            case 0: await root.send(action)
            case 1: await first.send(action)
            case 2: await second.send(action)
            default: await grandchild.send(action)
            }
            _ = await root.state
        }

        func dispatch(_ action: Action, to index: Int) {
            switch index {
            case 0: root.dispatch(action)
            case 1: first.dispatch(action)
            case 2: second.dispatch(action)
            default: grandchild.dispatch(action)
            }
        }

        /// Every store's own state, once everything sent before was handled.
        func snapshot() async -> Snapshot {
            let grandchild = await grandchild.state
            let first = await first.state
            return Snapshot(root: grandchild.0.0, first: first.1, second: grandchild.0.1, grandchild: grandchild.1)
        }
    }

    struct Snapshot: Equatable {
        let root: [String]
        let first: Int
        let second: String
        let grandchild: Bool
    }

    /// Builds the tree. `live` adds the app's middleware that sends and transforms actions (a stand-in
    /// for effects): recorded, its results are in the log, so a replayed tree is built without it.
    static func makeTree(
        scheduler: any DelayScheduler = DispatchDelayScheduler(),
        live: Bool,
        recorder: ActionRecorder<Action>? = nil
    ) -> Tree {
        var middlewares: [Middleware<[String], Action>] = []
        if live {
            middlewares.append(
                Middleware("app rules") { action, context in
                    switch action {
                    case .clamp(let value) where value < 0:
                        return  // blocked: never reaches the reducers, never recorded
                    case .clamp(let value) where value > 50:
                        context.next(.clamp(50))  // recorded as transformed
                    case .add(let value) where value % 5 == 0:
                        context.dispatch(.rename("five-\(value)"))  // a follow-up, recorded on its own
                        context.next(action)
                    default:
                        context.next(action)
                    }
                }
            )
        }
        if let recorder { middlewares.append(recorder.middleware()) }
        let root = StateStore<[String], Action>([], scheduler: scheduler, middlewares: middlewares) { state, action in
            state.append("\(action)")
        }
        let first = root.with(0) { total, action in
            switch action {
            case .add(let value), .clamp(let value): total = total &* 31 &+ value
            case .rename, .toggle: total += 1
            }
        }
        let second = root.with("") { name, action in
            if case .rename(let text) = action { name = "\(name.count):\(text)" }
        }
        let grandchild = second.with(false) { flag, action in
            if case .toggle = action { flag.toggle() }
        }
        return Tree(root: root, first: first, second: second, grandchild: grandchild)
    }

    static func randomAction(_ random: inout SplitMix64) -> Action {
        switch random.next(below: 4) {
        case 0: .add(random.next(below: 40))
        case 1: .rename("n\(random.next(below: 1000))")
        case 2: .toggle
        default: .clamp(random.next(below: 100) - 30)
        }
    }

    // MARK: Round trips

    @Test(arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func aRandomSessionReplaysIntoAFreshTreeWithEveryStoreEqual(seed: UInt64) async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "test 1") { output.append($0) }
        let live = Self.makeTree(live: true, recorder: recorder)
        var random = SplitMix64(seed: seed)
        for _ in 0..<300 {
            live.dispatch(Self.randomAction(&random), to: random.next(below: 4))
        }
        // Follow-ups are queued behind the actions sent; they send none of their own, so once a first read
        // has waited for the actions, a second one waits for the follow-ups too.
        _ = await live.snapshot()
        let recorded = await live.snapshot()
        try recorder.close()

        let log = try ActionLog<Action>(data: output.data, appVersion: "test 1")
        #expect(log.truncation == nil)
        #expect(log.entries.count >= 250)  // blocked clamps are not in it; follow-ups are
        let replayed = Self.makeTree(live: false)
        let report = try await log.replay(into: replayed.targets)
        #expect(
            report == ReplayReport(replayed: log.entries.count, notReduced: [], truncation: nil, wasCancelled: false)
        )
        #expect(await replayed.snapshot() == recorded)
    }

    @Test func recordingOnlyWhatEffectsDidNotSendReplaysIntoATreeWhoseEffectsRunAgain() async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "1") { output.append($0) }
        let notAFollowUp: @Sendable (Action) -> Bool = { action in
            if case .rename(let text) = action, text.hasPrefix("five-") { return false }
            return true
        }
        let live = Self.makeTree(live: true, recorder: nil)
        live.root.use(recorder.middleware(recording: notAFollowUp))
        // Effects run again on replay, so their results come when they come: the same order as when
        // recording only if each user action was settled before the next, as a person using an app does.
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            await live.sendAndSettle(Self.randomAction(&random), to: random.next(below: 4))
        }
        let recorded = await live.snapshot()
        try recorder.close()

        let log = try ActionLog<Action>(data: output.data)
        #expect(!log.entries.contains { !notAFollowUp($0.action) })
        let replayed = Self.makeTree(live: true)  // its middleware sends the follow-ups again
        try await log.replay(into: replayed.targets)
        _ = await replayed.snapshot()
        #expect(await replayed.snapshot() == recorded)
    }

    @Test func theLogHoldsWhatReachedTheReducersAndTheStoreItWasSentTo() async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "1.0") { output.append($0) }
        let tree = Self.makeTree(scheduler: ManualScheduler(), live: true, recorder: recorder)
        await tree.grandchild.send(.toggle)
        await tree.first.send(.clamp(-4))  // blocked by the app's middleware
        await tree.first.send(.clamp(70))  // reduced as clamp(50)
        await tree.root.send(.add(10))  // and its follow-up rename, queued behind it
        _ = await tree.root.state  // the follow-up was handled
        try recorder.flush()

        let log = try ActionLog<Action>(data: output.data)
        #expect(log.appVersion == "1.0")
        #expect(log.entries.map(\.action) == [.toggle, .clamp(50), .add(10), .rename("five-10")])
        #expect(log.entries.map(\.store.description) == ["root/1/0", "root/0", "root", "root"])
        #expect(log.entries.map(\.line) == [2, 3, 4, 5])
        let lines = String(decoding: output.data, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == #"{"app":"1.0","canopyActionLog":1}"#)
        #expect(lines.last == #"{"action":{"rename":{"_0":"five-10"}},"store":"root","time":0.0}"#)
    }

    @Test func aLogWrittenToAFileReadsBack() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "canopy-action-log-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try ActionRecorder<Action>(file: url, appVersion: "file")
        let tree = Self.makeTree(live: false, recorder: recorder)
        await tree.second.send(.rename("a"))
        await tree.first.send(.add(3))
        try recorder.close()

        let log = try ActionLog<Action>(contentsOf: url, appVersion: "file")
        let replayed = Self.makeTree(live: false)
        try await log.replay(into: replayed.targets)
        #expect(await replayed.snapshot() == tree.snapshot())
    }

    @Test func aFileThatCannotBeCreatedOrReadIsReportedWithItsPath() {
        let missing = URL(filePath: "/nonexistent-canopy-dir/board.log")
        #expect {
            _ = try ActionRecorder<Action>(file: missing, appVersion: "1")
        } throws: { error in
            "\(error)".hasPrefix("/nonexistent-canopy-dir/board.log: cannot create the file")
        }
        #expect {
            _ = try ActionLog<Action>(contentsOf: missing)
        } throws: { error in
            "\(error)".hasPrefix("/nonexistent-canopy-dir/board.log: cannot read the file")
        }
    }

    // MARK: Errors with their line

    @Test func aTruncatedLastLineIsReportedAndTheLinesBeforeItReplay() async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "1") { output.append($0) }
        let live = Self.makeTree(live: false, recorder: recorder)
        await live.first.send(.add(1))
        await live.second.send(.rename("kept"))
        let beforeTheCrash = await live.snapshot()
        await live.grandchild.send(.toggle)
        try recorder.flush()
        let cut = output.data.dropLast(6)  // the crash: the last line is half written

        let log = try ActionLog<Action>(data: Data(cut))
        #expect(log.truncation == .truncatedLine(line: 4))
        #expect(log.entries.count == 2)
        let replayed = Self.makeTree(live: false)
        let report = try await log.replay(into: replayed.targets)
        #expect(report.truncation == .truncatedLine(line: 4))
        #expect(await replayed.snapshot() == beforeTheCrash)
        #expect("\(ActionLogError.truncatedLine(line: 4))".hasPrefix("line 4: the line is cut short"))
    }

    @Test func anActionThatNoLongerDecodesStopsTheReplayNamingItsLine() throws {
        let data = Data(
            """
            {"canopyActionLog":1,"app":"1"}
            {"store":"root","time":0,"action":{"toggle":{}}}
            {"store":"root/0","time":1,"action":{"launch":{"speed":3}}}
            {"store":"root","time":2,"action":{"toggle":{}}}

            """.utf8
        )
        #expect {
            _ = try ActionLog<Action>(data: data)
        } throws: { error in
            guard case .undecodableAction(line: 3, _) = error as? ActionLogError else { return false }
            return "\(error)".hasPrefix("line 3: the action does not decode with this version of the app")
        }
    }

    @Test func aBrokenLineInTheMiddleIsNotTakenForATruncation() {
        let data = Data(
            """
            {"canopyActionLog":1,"app":"1"}
            {"store":"root","time":0,"act
            {"store":"root","time":2,"action":{"toggle":{}}}

            """.utf8
        )
        #expect {
            _ = try ActionLog<Action>(data: data)
        } throws: { error in
            guard case .malformedLine(line: 2, _) = error as? ActionLogError else { return false }
            return "\(error)".hasPrefix("line 2: not an action log entry")
        }
    }

    @Test func aStoreTheReplayedTreeDoesNotHaveStopsTheReplayBeforeAnythingIsSent() async throws {
        let data = Data(
            """
            {"canopyActionLog":1,"app":"1"}
            {"store":"root","time":0,"action":{"toggle":{}}}
            {"store":"root/1/3","time":1,"action":{"toggle":{}}}

            """.utf8
        )
        let log = try ActionLog<Action>(data: data)
        let tree = Self.makeTree(live: false)
        await #expect {
            try await log.replay(into: tree.targets)
        } throws: { error in
            error as? ActionLogError == .unknownStore(line: 3, store: StoreID(path: [1, 3]))
                && "\(error)" == "line 3: the action was sent to store root/1/3, which the replayed tree does not have"
        }
        #expect(await tree.root.state == [])
    }

    @Test func aLogFromAnotherFormatOrAppVersionIsRefusedWithAClearError() {
        let other = Data(#"{"canopyActionLog":1,"app":"2.0"}"#.utf8 + [10])
        #expect(throws: ActionLogError.appVersionMismatch(found: "2.0", expected: "2.1")) {
            _ = try ActionLog<Action>(data: other, appVersion: "2.1")
        }
        let future = Data(#"{"canopyActionLog":9,"app":"2.1"}"#.utf8 + [10])
        #expect(throws: ActionLogError.unsupportedFormat(found: 9, supported: 1)) {
            _ = try ActionLog<Action>(data: future, appVersion: "2.1")
        }
        #expect {
            _ = try ActionLog<Action>(data: Data("hello\n".utf8))
        } throws: { error in
            "\(error)".hasPrefix("line 1: not a Canopy action log")
        }
        #expect(throws: ActionLogError.notAnActionLog(reason: "the log is empty")) {
            _ = try ActionLog<Action>(data: Data())
        }
    }

    // MARK: Timing

    @Test func recordedTimingReplaysEachActionWhenTheTreesClockGetsThere() async throws {
        let recordingClock = ManualScheduler()
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "1") { output.append($0) }
        let live = Self.makeTree(scheduler: recordingClock, live: false, recorder: recorder)
        recordingClock.advance(by: 10)  // the log keeps gaps, not the clock's reading
        await live.root.send(.add(1))
        recordingClock.advance(by: 2)
        await live.first.send(.add(2))
        recordingClock.advance(by: 3)
        await live.root.send(.add(3))
        try recorder.close()
        let log = try ActionLog<Action>(data: output.data)

        let clock = ManualScheduler()
        let replayed = Self.makeTree(scheduler: clock, live: false)
        let targets = replayed.targets
        let replay = Task { try await log.replay(into: targets, timing: .recorded(on: clock)) }
        #expect(await Self.state(of: replayed.root, reaches: 1) == ["add(1)"])
        await waitUntilScheduled(clock, count: 1)  // the player waits for 2 s on the tree's clock
        #expect(clock.pendingCount == 1)
        clock.advance(by: 1.5)
        #expect(await replayed.root.state == ["add(1)"])
        clock.advance(by: 0.5)
        #expect(await Self.state(of: replayed.root, reaches: 2) == ["add(1)", "add(2)"])
        await waitUntilScheduled(clock, count: 1)
        #expect(clock.pendingCount == 1)
        clock.advance(by: 2.9)
        #expect(await replayed.root.state.count == 2)
        clock.advance(by: 0.1)
        let report = try await replay.value
        #expect(report.replayed == 3)
        #expect(await replayed.root.state == ["add(1)", "add(2)", "add(3)"])
    }

    // MARK: Helpers

    /// The store's state once it holds `count` items, re-reading after each turn.
    private static func state(of store: StateStore<[String], Action>, reaches count: Int) async -> [String] {
        await waitForState(store) { $0.count >= count }
    }
}

/// Collects what a recorder writes, from its queue.
final class LogOutput: Sendable {
    private let bytes = LockedValue(Data())

    var data: Data { bytes.withLock { $0 } }

    func append(_ chunk: Data) {
        bytes.withLock { $0.append(chunk) }
    }
}
