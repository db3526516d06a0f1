import Canopy
import Foundation
import Synchronization

/// W1 with an action log: the same actions sent from one thread to a root with no observers, the root
/// carrying an `ActionRecorder` middleware whose log goes to a line counter (encoded on the recorder's
/// queue, not written to disk). Canopy only: the floors have no middleware.
///
/// Compare its instructions per action with W1's (`w1 --system canopy`): issue 13 allows recording at
/// most 1.5× W1's cost.
public enum W1Recorded {
    /// The workload's short name.
    public static let name = "W1 recorded"

    /// W1's action, as an action log needs it: `Codable`.
    public struct RecordedIncrement: Codable, Sendable {
        /// Creates the action.
        public init() {}
    }

    /// Runs the workload once and checks that every action was reduced and logged.
    ///
    /// - Parameter actions: Actions dispatched from one thread.
    /// - Returns: The throughput, the recorder's closing write included.
    /// - Throws: ``CheckFailure`` when the state or the log does not match the actions sent.
    public static func run(actions: Int = W1DispatchThroughput.defaultActions) throws(CheckFailure) -> Throughput {
        let lines = Mutex(0)
        let recorder = ActionRecorder<RecordedIncrement>(appVersion: "w1") { chunk in
            // With memchr over the raw bytes: `Data`'s iterator costs tens of instructions a byte, more
            // than recording the action, and a byte loop still a few hundred a line.
            let count = chunk.withUnsafeBytes { bytes -> Int in
                // Safety: the pointers stay within `bytes`, valid for this closure, and are only read.
                guard var cursor = bytes.baseAddress else { return 0 }
                let end = cursor + bytes.count
                var count = 0
                while cursor < end, let newline = memchr(cursor, Int32(UInt8(ascii: "\n")), end - cursor) {
                    count += 1
                    cursor = UnsafeRawPointer(newline) + 1
                }
                return count
            }
            lines.withLock { $0 += count }
        }
        let store = StateStore<Int, RecordedIncrement>(0, middlewares: [recorder.middleware()]) { state, _ in
            state += 1
        }
        var final = 0
        var closing: (any Error)?
        let result = measureThroughput(actions: actions) {
            for _ in 0..<actions {
                store.dispatch(RecordedIncrement())
            }
            final = store.settledState()
            do { try recorder.close() } catch { closing = error }
        }
        try check(final == actions, name, .canopy, "state \(final), expected \(actions)")
        try check(closing == nil, name, .canopy, "the recorder failed: \(String(describing: closing))")
        let logged = lines.withLock { $0 }
        try check(logged == actions + 1, name, .canopy, "\(logged) log lines, expected \(actions) and the header")
        return result
    }
}
