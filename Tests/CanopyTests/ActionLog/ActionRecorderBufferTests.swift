import Foundation
import Testing

@testable import Canopy

/// The recorder's buffer keeps entries in chunks of fixed size: a log of many actions, taken by the
/// writer in several batches while threads send them, holds every one once, in order, with its store.
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

    @Test func concurrentDispatchesAreEachLoggedOnceInTheOrderTheReducerSawThem() async throws {
        let output = LogOutput()
        let recorder = ActionRecorder<Int>(appVersion: "concurrent") { output.append($0) }
        // The reducer keeps every action in the order the tree reduced it: the log must match it.
        let root = StateStore<[Int], Int>([], middlewares: [recorder.middleware()]) { seen, action in
            seen.append(action)
        }
        let senders = 4
        let perSender = 3_000  // several chunks each (682 entries of this size fill one)
        DispatchQueue.concurrentPerform(iterations: senders + 1) { index in
            guard index < senders else {
                // Meanwhile, the writer takes batches while the senders fill the chunks.
                for _ in 0..<20 {
                    try? recorder.flush()
                }
                return
            }
            for step in 0..<perSender {
                root.dispatch(index * perSender + step)
            }
        }
        let reduced = await root.state
        try recorder.close()

        let logged = try ActionLog<Int>(data: output.data, appVersion: "concurrent").entries.map(\.action)
        // Compared by count and first difference: a failure prints a position, not 12,000 numbers.
        #expect(reduced.count == senders * perSender)
        #expect(Set(reduced).count == senders * perSender)
        #expect(logged.count == reduced.count)
        let firstDifference = logged.indices.first { $0 >= reduced.count || logged[$0] != reduced[$0] }
        #expect(firstDifference == nil, "the log differs from the reducer's order")
        for sender in 0..<senders {
            let sent = logged.filter { $0 / perSender == sender }
            #expect(sent.elementsEqual(sender * perSender..<(sender + 1) * perSender), "sender \(sender) out of order")
        }
    }
}
