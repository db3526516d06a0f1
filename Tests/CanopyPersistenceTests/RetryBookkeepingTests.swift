import Canopy
import CanopyPersistence
import Testing

/// The bookkeeping of a failed write that external changes build on: which value wins when a failed
/// batch goes back under newer changes, and how a writer's run of failures starts over.
@Suite("Retry bookkeeping", .timeLimit(.minutes(1)))
struct RetryBookkeepingTests {
    let scheduler = ManualScheduler()

    func makeStore() -> StateStore<NotesBoard, NotesAction> {
        StateStore(NotesBoard(), scheduler: scheduler, reducer: NotesAction.reduce)
    }

    /// A change made while a failing write of the same entity is in flight, and the batch the retry
    /// must write.
    static let newerChanges: [(change: NotesAction, retried: WriteBatch<Note>)] = [
        (.upsert(Note(1, "new")), WriteBatch(upserts: [Note(1, "new")])),
        (.delete(1), WriteBatch(deletions: [1])),
    ]

    @Test(
        "A change made while a failing write of the entity is in flight wins over the failed batch's value",
        arguments: newerChanges
    )
    func newerChangeWinsOverTheFailedBatch(change: NotesAction, retried: WriteBatch<Note>) async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.hold()
        writer.failNext(1)
        store.dispatch(.upsert(Note(1, "old")))
        let first = Task { try await store.flush() }
        await writer.waitForWriteInProgress()
        // The batch with "old" is out; note 1 changes again before the write fails.
        _ = await store.send(change)
        writer.release()
        await #expect(throws: PersistenceError.self) { try await first.value }
        try await store.flush()
        #expect(writer.batches == [retried])
    }

    @Test("A writer that fails, succeeds, then fails again starts its attempts and its backoff over")
    func failuresStartOverAfterASuccess() async throws {
        let store = makeStore()
        let events = Watched<[String]>([])
        let writer = RecordingWriter()
        let options = PersistenceOptions(debounce: 0.1, maxDelay: 1) { event in
            events.update { $0.append(describe(event)) }
        }
        store.persist(\.notes, to: writer, options: options)

        // Two failures in a row: attempts 1 and 2, the backoff doubling.
        writer.failNext(2)
        store.dispatch(.upsert(Note(1)))
        await #expect(throws: PersistenceError.self) { try await store.flush() }
        let second = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(second?.attempt == 2)
        try await store.flush()

        // After the success, the next failure is the first of a new run, with the first delay again.
        writer.failNext(1)
        store.dispatch(.upsert(Note(2)))
        let again = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(again?.attempt == 1)
        #expect(
            events.value == [
                "failed RecordingWriter Failure(attempt: 1) attempt 1 retry in 0.1",
                "failed RecordingWriter Failure(attempt: 2) attempt 2 retry in 0.2",
                "wrote RecordingWriter +1 -0",
                "failed RecordingWriter Failure(attempt: 4) attempt 1 retry in 0.1",
            ]
        )
        // The retry is due after the first delay, not after the third: `advance` starts it on the tree's
        // queue before returning, so no timer is left.
        scheduler.advance(by: 0.1)
        #expect(scheduler.pendingCount == 0)
        if scheduler.pendingCount > 0 {
            // Lets a failing run end without waiting for the bound.
            scheduler.advance(by: 1)
        }
        await writer.waitForAttempts(5)
        await events.wait(until: "the retried write") { $0.count == 5 }
        #expect(events.value.last == "wrote RecordingWriter +1 -0")
        #expect(writer.stored == [1: Note(1), 2: Note(2)])
        // What is pending is written when the store is released, and Swift may release a local right after
        // its last use: the store is held so that the write checked is the retry.
        withExtendedLifetime(store) {}
    }
}
