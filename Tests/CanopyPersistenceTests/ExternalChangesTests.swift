import Canopy
import CanopyPersistence
import Testing

/// Storage changed by someone else: merging what is read back without writing it again, conflicts a
/// writer reports, and batches that carry only what changed.
@Suite("External changes", .timeLimit(.minutes(1)))
struct ExternalChangesTests {
    let scheduler = ManualScheduler()

    func makeStore(_ board: NotesBoard = NotesBoard()) -> StateStore<NotesBoard, NotesAction> {
        StateStore(board, scheduler: scheduler, reducer: NotesAction.reduce)
    }

    // MARK: Merging

    @Test("mergeExternal upserts in place, appends new ids and removes deleted ones, recording nothing")
    func mergeRecordsNothing() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1, "a"), Note(2, "b"), Note(3, "c")])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        _ = await store.send(.mergeExternal(upserts: [Note(4, "d"), Note(2, "b2")], deletions: [1, 9]))
        try await store.flush()
        #expect(writer.attempts == 0)
        let notes = await store.state.notes
        #expect(Array(notes) == [Note(2, "b2"), Note(3, "c"), Note(4, "d")])
        #expect(notes.changes.isEmpty)
    }

    @Test("mergeExternal leaves an entity whose local change is recorded and not yet taken")
    func mergeKeepsLocalChanges() {
        var notes = EntityStore([Note(1, "a"), Note(2, "b"), Note(3, "c")])
        notes.upsert(Note(1, "mine"))
        notes.remove(id: 2)
        let kept = notes.mergeExternal(upserts: [Note(1, "theirs"), Note(2, "theirs"), Note(3, "c2")], deletions: [1])
        #expect(kept == [1, 2, 1])
        #expect(Array(notes) == [Note(1, "mine"), Note(3, "c2")])
        #expect(notes.changes.upserted == [1])
        #expect(notes.changes.deleted == [2])
    }

    @Test("Changes made after a merge are written; the merged values are not")
    func changesAfterAMerge() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1, "a"), Note(2, "b")])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        _ = await store.send(.mergeExternal(upserts: [Note(1, "theirs")], deletions: [2]))
        _ = await store.send(.upsert(Note(3, "mine")))
        try await store.flush()
        #expect(writer.batches == [WriteBatch(upserts: [Note(3, "mine")])])
    }

    // MARK: Only what changed

    @Test("replaceAll(with:) records the entities that differ, not copies of the unchanged ones")
    func replaceAllRecordsOnlyWhatChanged() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1, "a"), Note(2, "b"), Note(3, "c")])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        _ = await store.send(.replace([Note(1, "a"), Note(2, "b2"), Note(4, "d")]))
        try await store.flush()
        #expect(writer.batches == [WriteBatch(upserts: [Note(2, "b2"), Note(4, "d")], deletions: [3])])
    }

    // MARK: Conflicts

    @Test("A conflict drops the changes of the ids named, writes the rest next, and is not retried")
    func conflictDropsItsIDs() async throws {
        let store = makeStore()
        let events = Watched<[String]>([])
        let writer = RecordingWriter()
        store.persist(
            \.notes,
            to: writer,
            options: PersistenceOptions(debounce: 0.1, maxDelay: 1) { event in
                events.update { $0.append(describe(event)) }
            }
        )
        writer.conflictNext([1])
        store.dispatch(.upsert(Note(1, "stale")))
        store.dispatch(.upsert(Note(2, "new")))
        let error = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(error?.isConflict == true)
        #expect((error?.underlying as? WriteConflict<Int>)?.ids == [1])
        #expect(events.value == ["conflicted RecordingWriter 1: changed by someone else"])

        // The rest goes after the debounce, not after a retry's backoff; note 1 never comes again. The
        // debounce is on the clock before flush() throws, so moving the clock now reaches it.
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: 0.1)
        await writer.waitForAttempts(2)
        try await store.flush()
        #expect(writer.batches == [WriteBatch(upserts: [Note(2, "new")])])
        #expect(writer.attempts == 2)
        #expect(events.value.last == "wrote RecordingWriter +1 -0")
    }

    @Test("A conflict is not a failure: the next failure is attempt 1")
    func conflictDoesNotCountAsAFailure() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.conflictNext([1])
        store.dispatch(.upsert(Note(1)))
        let conflict = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(conflict?.isConflict == true)
        writer.failNext(1)
        store.dispatch(.upsert(Note(2)))
        let failure = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(failure?.isConflict == false)
        #expect(failure?.attempt == 1)
        try await store.flush()
        #expect(writer.stored == [2: Note(2)])
    }

    @Test("A change made while the conflicting write is in flight is still written")
    func newerChangeSurvivesAConflict() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.hold()
        writer.conflictNext([1])
        store.dispatch(.upsert(Note(1, "stale")))
        let first = Task { try await store.flush() }
        await writer.waitForWriteInProgress()
        _ = await store.send(.upsert(Note(1, "after")))
        writer.release()
        await #expect(throws: PersistenceError.self) { try await first.value }
        try await store.flush()
        #expect(writer.batches == [WriteBatch(upserts: [Note(1, "after")])])
    }
}
