import Canopy
import CanopyPersistence
import CanopyTesting
import Testing

/// A `TestStore` follows the write rounds of its tree's writers as it follows its effects: it moves its
/// clock, and returns, only once a round that started has ended and scheduled what follows it.
@Suite("TestStore and write rounds", .timeLimit(.minutes(1)))
struct TestStoreRoundsTests {
    let options = PersistenceOptions(debounce: 0.1, maxDelay: 1)

    func makeStore(writer: RecordingWriter) -> TestStore<NotesBoard, NotesAction> {
        TestStore { [options] scheduler in
            let store = StateStore(NotesBoard(), scheduler: scheduler, reducer: NotesAction.reduce)
            store.persist(\.notes, to: writer, options: options)
            return store
        }
    }

    @Test("advance(by:) returns once the round it started has failed and its retry is on the clock")
    func advanceWaitsForAFailedRoundAndItsRetry() async {
        let writer = RecordingWriter()
        writer.failNext(1)
        let store = makeStore(writer: writer)
        await store.send(.upsert(Note(1, "a"))) { $0.notes.upsert(Note(1, "a")) }
        await store.advance(by: options.debounce)
        // No wait on the writer: the round ended before `advance` returned.
        #expect(writer.attempts == 1)
        await store.advance(by: options.retryPolicy.delay(beforeRetry: 1))
        #expect(writer.attempts == 2)
        #expect(writer.stored == [1: Note(1, "a")])
        await store.finish()
    }

    @Test("advance(by:) returns once the round it started has stored its batch")
    func advanceWaitsForAStoredRound() async {
        let writer = RecordingWriter()
        let store = makeStore(writer: writer)
        await store.send(.upsert(Note(1, "a"))) { $0.notes.upsert(Note(1, "a")) }
        await store.advance(by: options.debounce)
        #expect(writer.attempts == 1)
        await store.send(.upsert(Note(2, "b"))) { $0.notes.upsert(Note(2, "b")) }
        await store.advance(by: options.debounce)
        #expect(writer.attempts == 2)
        #expect(writer.batches == [WriteBatch(upserts: [Note(1, "a")]), WriteBatch(upserts: [Note(2, "b")])])
        await store.finish()
    }
}
