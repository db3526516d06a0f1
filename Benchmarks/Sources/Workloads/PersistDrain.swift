import Canopy
import CanopyPersistence
import Dispatch
import Synchronization

/// Draining large change sets: each round, one action upserts 1,000 entities, then the tree's writes
/// are flushed and the writer checks it got them in one batch. Canopy only.
///
/// Instructions per round divided by 1,000 give the cost of one changed entity, from the reducer's
/// upsert through the drain and the batch to the writer.
public enum PersistDrain {
    /// The workload's short name.
    public static let name = "persist drain"

    /// Entities changed by each round's action.
    public static let entitiesPerRound = 1_000

    /// A stored entity.
    public struct Entry: Identifiable, Sendable {
        /// The entry's id.
        public let id: Int
        /// Changes each round.
        public var round: Int
    }

    final class CheckingWriter: StateWriter {
        /// Batches written, and those that did not hold one entry per id.
        let tally = Mutex((batches: 0, wrong: 0))

        func write(_ batch: WriteBatch<Entry>) async throws {
            let complete = batch.upserts.count == PersistDrain.entitiesPerRound && batch.deletions.isEmpty
            tally.withLock { tally in
                tally.batches += 1
                if !complete { tally.wrong += 1 }
            }
        }
    }

    /// Runs `rounds` rounds and checks that each wrote one complete batch.
    ///
    /// - Parameter rounds: Actions, each changing ``entitiesPerRound`` entities, each followed by a flush.
    /// - Returns: The throughput, in rounds.
    /// - Throws: ``CheckFailure`` when a batch is missing or incomplete.
    public static func run(rounds: Int) throws(CheckFailure) -> Throughput {
        let writer = CheckingWriter()
        let store = StateStore<EntityStore<Entry>, Int>(EntityStore()) { entries, round in
            for id in 0..<PersistDrain.entitiesPerRound {
                entries.upsert(Entry(id: id, round: round))
            }
        }
        store.persist(\.self, to: writer)
        let result = measureThroughput(actions: rounds) {
            for round in 0..<rounds {
                store.dispatch(round)
                let flushed = DispatchSemaphore(value: 0)
                Task {
                    try? await store.flush()
                    flushed.signal()
                }
                flushed.wait()
            }
        }
        let tally = writer.tally.withLock { $0 }
        try check(
            tally.batches == rounds && tally.wrong == 0,
            name,
            .canopy,
            "\(tally.batches) batches (\(tally.wrong) incomplete), expected \(rounds) complete ones"
        )
        return result
    }
}
