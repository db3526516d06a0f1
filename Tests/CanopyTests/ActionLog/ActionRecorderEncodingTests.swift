import Foundation
import Testing

@testable import Canopy

/// The recorder's encoding: every kind of Codable action reads back equal, those the stream writer
/// refuses go through `JSONEncoder`, and an action neither can write is reported, its line left out.
@Suite(.timeLimit(.minutes(1))) struct ActionRecorderEncodingTests {
    enum Action: Codable, Sendable, Equatable {
        case sample(SampleValue)
        case board(BoardLikeAction)
        case lateSuper(LateSuper)
        case ratio(Double)
    }

    /// Records `actions`, sent to a root and a child, and reads the log back.
    static func recordAndRead(_ actions: [Action]) async throws -> (log: ActionLog<Action>, error: ActionLogError?) {
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "encoding") { output.append($0) }
        let root = StateStore<Int, Action>(0, scheduler: ManualScheduler(), middlewares: [recorder.middleware()]) {
            count,
            _ in
            count += 1
        }
        let child = root.with(0) { count, _ in count += 1 }
        for (index, action) in actions.enumerated() {
            if index.isMultiple(of: 2) { root.dispatch(action) } else { child.dispatch(action) }
        }
        _ = await child.state  // every action was handled
        var error: ActionLogError?
        do { try recorder.close() } catch let failure { error = failure }
        return (try ActionLog<Action>(data: output.data, appVersion: "encoding"), error)
    }

    @Test func randomActionsOfEveryShapeReadBackEqual() async throws {
        var random = SplitMix64(seed: 2_027)
        var actions: [Action] = []
        for _ in 0..<400 {
            switch random.next(below: 3) {
            case 0: actions.append(.sample(.random(depth: 3, using: &random)))
            case 1: actions.append(.board(.random(using: &random)))
            default: actions.append(.ratio(SampleValue.randomDouble(using: &random)))
            }
        }
        let (log, error) = try await Self.recordAndRead(actions)
        #expect(error == nil)
        #expect(log.entries.map(\.action) == actions)
        #expect(
            log.entries.map(\.store.description) == actions.indices.map { $0.isMultiple(of: 2) ? "root" : "root/0" }
        )
    }

    @Test func anActionTheStreamWriterRefusesIsWrittenByJSONEncoder() async throws {
        let actions: [Action] = [.ratio(1), .lateSuper(LateSuper(base: 4, own: "x")), .ratio(2)]
        let (log, error) = try await Self.recordAndRead(actions)
        #expect(error == nil)
        #expect(log.entries.map(\.action) == actions)
    }

    @Test func anActionNeitherCanWriteIsReportedAndTheOthersAreKept() async throws {
        let (log, error) = try await Self.recordAndRead([.ratio(1), .ratio(.nan), .ratio(3)])
        guard case .io(_, let reason) = error else {
            Issue.record("expected the encoding failure, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("Double.nan"))
        #expect(log.entries.map(\.action) == [.ratio(1), .ratio(3)])
        #expect(log.entries.map(\.line) == [2, 3])
    }

    @Test func aTimeThatIsNotANumberIsReportedNotWrittenAsBrokenJSON() async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Action>(appVersion: "clock") { output.append($0) }
        let middlewares: [Middleware<Int, Action>] = [recorder.middleware()]
        let root = StateStore<Int, Action>(0, scheduler: BrokenClock(), middlewares: middlewares) { count, _ in
            count += 1
        }
        await root.send(.ratio(1))
        #expect(throws: ActionLogError.io(path: "action log", reason: "the tree's clock read nan, not a time")) {
            try recorder.close()
        }
        #expect(try ActionLog<Action>(data: output.data).entries.isEmpty)
    }
}

/// A clock that has lost its mind: `now` is not a number.
private struct BrokenClock: DelayScheduler {
    var now: TimeInterval { .nan }

    func schedule(
        after delay: TimeInterval,
        on queue: DispatchQueue,
        _ work: @escaping @Sendable () -> Void
    ) -> ScheduledWork {
        queue.async(execute: work)
        return ScheduledWork {}
    }
}

/// Fills its `superEncoder()` after writing its own key: `JSONEncoder` takes it, a stream cannot.
struct LateSuper: Codable, Sendable, Equatable {
    var base: Int
    var own: String

    enum CodingKeys: CodingKey { case own }

    init(base: Int, own: String) {
        self.base = base
        self.own = own
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let parent = container.superEncoder()
        try container.encode(own, forKey: .own)
        try base.encode(to: parent)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        own = try container.decode(String.self, forKey: .own)
        base = try Int(from: container.superDecoder())
    }
}
