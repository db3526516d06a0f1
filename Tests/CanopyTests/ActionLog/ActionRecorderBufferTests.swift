import Foundation
import Testing

@testable import Canopy

/// The recorder's buffer keeps entries in chunks of fixed size: a log of many actions, taken by the
/// writer in several batches, holds every one in order with its store.
@Suite(.timeLimit(.minutes(1))) struct ActionRecorderBufferTests {
    @Test func thousandsOfActionsAreLoggedInOrderAcrossTheBuffersChunks() async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Int>(appVersion: "chunks") { output.append($0) }
        let root = StateStore<Int, Int>(0, middlewares: [recorder.middleware()]) { total, action in
            total &+= action
        }
        let child = root.with(0) { count, _ in count += 1 }
        // Far more than a chunk holds (682 entries of this size), sent to the root, which takes the
        // observers' own path, and to a child, which takes the general one.
        for value in 0..<5_000 {
            if value % 3 == 0 {
                child.dispatch(value)
            } else {
                root.dispatch(value)
            }
        }
        _ = await child.state
        try recorder.flush()
        for value in 5_000..<7_000 {
            root.dispatch(value)
        }
        _ = await root.state
        try recorder.close()

        let log = try ActionLog<Int>(data: output.data, appVersion: "chunks")
        #expect(log.truncation == nil)
        #expect(log.entries.map(\.action) == Array(0..<7_000))
        let stores = log.entries.map(\.store.description)
        #expect(stores == (0..<7_000).map { $0 < 5_000 && $0 % 3 == 0 ? "root/0" : "root" })
        let times = log.entries.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(await root.state == (0..<7_000).reduce(0, +))
    }
}
