import Canopy
import CanopyPersistence
import Testing

/// What an entity store records as reducers change it, and the batches writers get from it: ids and
/// entities kept in step, and the order a batch carries, across moves, failures and retries.
@Suite("Change sets and the order of batches", .timeLimit(.minutes(1)))
struct ChangeSetOrderTests {
    let scheduler = ManualScheduler()

    func makeStore(_ board: NotesBoard = NotesBoard()) -> StateStore<NotesBoard, NotesAction> {
        StateStore(board, scheduler: scheduler, reducer: NotesAction.reduce)
    }

    struct Stop: Error {}

    @Test("removeAll(where:) whose predicate throws keeps the ids and the entities in step")
    func removeAllWithAThrowingPredicate() {
        var notes = EntityStore([Note(1), Note(2), Note(3)])
        #expect(throws: Stop.self) {
            try notes.removeAll { note in
                if note.id == 3 { throw Stop() }
                return note.id == 1
            }
        }
        #expect(notes.ids == [2, 3])
        #expect(Array(notes) == [Note(2), Note(3)])
        #expect(notes.changes.deleted == [1])
    }

    @Test("A batch's order lists every id when entities are appended or removed after a move")
    func orderAfterMoveThenAppend() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1), Note(2), Note(3)])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        store.dispatch(.move(id: 3, to: 0))
        store.dispatch(.upsert(Note(4)))
        store.dispatch(.delete(1))
        try await store.flush()
        #expect(writer.batches.first?.order == [3, 2, 4])
    }

    @Test("After a failed write that carried an order, the retry's order lists the ids appended meanwhile")
    func orderAfterAFailedWrite() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1), Note(2), Note(3)])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.hold()
        writer.failNext(1)
        store.dispatch(.move(id: 3, to: 0))
        let first = Task { try await store.flush() }
        await writer.waitForWriteInProgress()
        _ = await store.send(.upsert(Note(4)))
        writer.release()
        await #expect(throws: PersistenceError.self) { try await first.value }
        try await store.flush()
        #expect(writer.batches.last?.upserts == [Note(4)])
        #expect(writer.batches.last?.order == [3, 1, 2, 4])
    }

    @Test("After a write that carried an order succeeds, the changes made during it carry none")
    func noOrderAfterASuccessfulWrite() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1), Note(2), Note(3)])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.hold()
        store.dispatch(.move(id: 3, to: 0))
        let first = Task { try await store.flush() }
        await writer.waitForWriteInProgress()
        _ = await store.send(.upsert(Note(4)))
        writer.release()
        try await first.value
        try await store.flush()
        #expect(writer.batches == [WriteBatch(order: [3, 1, 2]), WriteBatch(upserts: [Note(4)])])
    }

    @Test("A batch's deletions come in the order their ids first changed, as WriteBatch.deletions says")
    func deletionsInTheOrderTheyFirstChanged() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1), Note(2)])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        store.dispatch(.upsert(Note(2, "edited")))
        store.dispatch(.delete(1))
        store.dispatch(.delete(2))
        try await store.flush()
        #expect(writer.batches == [WriteBatch(deletions: [2, 1])])
    }
}
