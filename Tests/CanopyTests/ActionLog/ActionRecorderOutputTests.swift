import Foundation
import Testing

@testable import Canopy

/// What the recorder hands its output when a write fails and when the log is closed.
@Suite(.timeLimit(.minutes(1))) struct ActionRecorderOutputTests {
    struct RefusedWrite: Error {}

    /// An output that stores what it gets and throws on the call numbered `failingCall` (from 1).
    final class FailingOutput: Sendable {
        let log = LogOutput()
        private let calls = LockedValue(0)
        private let failingCall: Int

        init(failingCall: Int) {
            self.failingCall = failingCall
        }

        var callCount: Int { calls.withLock { $0 } }

        func write(_ chunk: Data) throws {
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == failingCall { throw RefusedWrite() }
            log.append(chunk)
        }
    }

    @Test func aFailedWriteIsReportedByFlushAndCloseAndNothingIsWrittenAfterIt() async throws {
        let output = FailingOutput(failingCall: 2)  // the header goes through, the first batch fails
        let recorder = ActionRecorder<Int>(appVersion: "failing") { try output.write($0) }
        let root = StateStore<Int, Int>(0, middlewares: [recorder.middleware()]) { total, action in total += action }
        root.dispatch(1)
        _ = await root.state
        #expect(throws: ActionLogError.self) { try recorder.flush() }
        #expect(output.callCount == 2)
        // A failed write may have left part of a line: the later batches are not handed on.
        root.dispatch(2)
        _ = await root.state
        #expect(throws: ActionLogError.self) { try recorder.close() }
        #expect(output.callCount == 2)
        let log = try ActionLog<Int>(data: output.log.data, appVersion: "failing")
        #expect(log.entries.isEmpty)
    }

    @Test func afterCloseNothingIsRecordedAndClosingAgainDoesNothingMore() async throws {
        let output = FailingOutput(failingCall: 0)  // never fails
        let recorder = ActionRecorder<Int>(appVersion: "closing") { try output.write($0) }
        let root = StateStore<Int, Int>(0, middlewares: [recorder.middleware()]) { total, action in total += action }
        root.dispatch(1)
        _ = await root.state
        try recorder.close()
        let calls = output.callCount
        root.dispatch(2)
        #expect(await root.state == 3)  // the action passed through the middleware, unrecorded
        try recorder.close()
        try recorder.flush()
        #expect(output.callCount == calls)
        let log = try ActionLog<Int>(data: output.log.data, appVersion: "closing")
        #expect(log.entries.map(\.action) == [1])
    }

    @Test func aFileLogIsClosedOnceAndRefusesNothingBeforeThat() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-closing-\(UUID()).log")
        defer { try? FileManager.default.removeItem(at: url) }
        let recorder = try ActionRecorder<Int>(file: url, appVersion: "file")
        let root = StateStore<Int, Int>(0, middlewares: [recorder.middleware()]) { total, action in total += action }
        for value in 1...3 {
            root.dispatch(value)
        }
        _ = await root.state
        try recorder.close()
        try recorder.close()
        let log = try ActionLog<Int>(contentsOf: url, appVersion: "file")
        #expect(log.entries.map(\.action) == [1, 2, 3])
    }
}
