import Canopy
import CanopyPersistence
import Synchronization

/// W1 with a persistence writer registered: the same actions sent from one thread to a root with no
/// observers, whose state also holds an `EntityStore` that a writer watches. No action touches an
/// entity, so the writer is never called; what is measured is what watching costs a reduce. Canopy
/// only: the floors have no persistence.
///
/// Compare its instructions per action with W1's (`w1 --system canopy`): issue 16 allows at most 1.2×.
public enum W1Persisted {
    /// The workload's short name.
    public static let name = "W1 persisted"

    /// The entity the state holds.
    public struct Entry: Identifiable, Sendable {
        /// The entry's id.
        public let id: Int
    }

    /// The root state: W1's counter, and the entities the writer watches.
    public struct Counter: Sendable {
        var count = 0
        var entries = EntityStore<Entry>((0..<100).map(Entry.init))
    }

    /// Counts the batches it is given.
    final class CountingWriter: StateWriter {
        let batches = Mutex(0)

        func write(_ batch: WriteBatch<Entry>) async throws {
            batches.withLock { $0 += 1 }
        }
    }

    /// Runs the workload once and checks that every action was reduced and nothing was written.
    ///
    /// - Parameter actions: Actions dispatched from one thread.
    /// - Returns: The throughput.
    /// - Throws: ``CheckFailure`` when the state or the writes do not match the actions sent.
    public static func run(actions: Int = W1DispatchThroughput.defaultActions) throws(CheckFailure) -> Throughput {
        let writer = CountingWriter()
        let store = StateStore<Counter, Increment>(Counter()) { state, _ in
            state.count += 1
        }
        store.persist(\.entries, to: writer)
        var final = 0
        let result = measureThroughput(actions: actions) {
            for _ in 0..<actions {
                store.dispatch(Increment())
            }
            final = store.settledState().count
        }
        try check(final == actions, name, .canopy, "state \(final), expected \(actions)")
        let written = writer.batches.withLock { $0 }
        try check(written == 0, name, .canopy, "\(written) batches written, expected none")
        return result
    }
}
