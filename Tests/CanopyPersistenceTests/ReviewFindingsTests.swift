import Canopy
import CanopyPersistence
import Testing

/// Tests written by the review of CanopyPersistence: each proves a finding (marked `withKnownIssue` while
/// the finding is open) or pins down a path the review checked and found sound.
@Suite("Review findings", .timeLimit(.minutes(1)))
struct ReviewFindingsTests {
    let scheduler = ManualScheduler()

    func makeStore(_ board: NotesBoard = NotesBoard()) -> StateStore<NotesBoard, NotesAction> {
        StateStore(board, scheduler: scheduler, reducer: NotesAction.reduce)
    }

    struct Stop: Error {}

    // MARK: Findings

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

    @Test("A writer's maxDelay holds when a slower writer of the tree gets a change after it")
    func perWriterMaxDelay() async {
        let store = makeStore()
        let quick = RecordingWriter(name: "quick")
        let slow = RecordingWriter(name: "slow")
        store.persist(\.notes, to: quick, options: PersistenceOptions(debounce: 0.1, maxDelay: 0.1))
        store.persist(\.notes, to: slow, options: PersistenceOptions(debounce: 5, maxDelay: 5))
        _ = await store.send(.upsert(Note(1)))
        scheduler.advance(by: 0.1)
        // `advance` ran what was due on the tree's queue before returning: a round started, and no timer
        // is left.
        #expect(scheduler.pendingCount == 0)
        if scheduler.pendingCount > 0 {
            // Lets a failing run end without waiting for the bound.
            scheduler.advance(by: 5)
        }
        await quick.waitForAttempts(1)
        #expect(quick.stored == [1: Note(1)])
    }

    @Test("Writers named in their options are named so in errors and events")
    func namedWriters() async {
        let store = makeStore()
        let writer = RecordingWriter()
        writer.failNext(1)
        let events = Watched<[String]>([])
        store.persist(
            \.notes,
            to: writer,
            options: PersistenceOptions(name: "notes table") { event in
                events.update { $0.append(describe(event)) }
            }
        )
        store.dispatch(.upsert(Note(1)))
        let error = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(error?.writer == "notes table")
        // The listener hears of the failure before `flush()` throws it.
        #expect(events.value.first?.hasPrefix("failed notes table") == true)
    }

    @Test("A writer's first failure is attempt 1, even after another writer of the tree failed before it")
    func attemptsCountPerWriter() async throws {
        let store = makeStore()
        let first = RecordingWriter(name: "first")
        let second = RecordingWriter(name: "second")
        store.persist(\.notes, to: first)
        store.persist(\.notes, to: second)
        first.failNext(1)
        second.failNext(1)
        store.dispatch(.upsert(Note(1)))
        await #expect(throws: PersistenceError.self) { try await store.flush() }
        // The retry: the first writer succeeds, the second fails for the first time.
        let error = await #expect(throws: PersistenceError.self) { try await store.flush() }
        #expect(first.attempts == 2 && second.attempts == 1)
        #expect(error?.attempt == 1)
        try await store.flush()
        #expect(second.stored == [1: Note(1)])
    }

    @Test("The writer of a child that was released is released once its changes are written")
    func releasedChildLetsItsWriterGo() async throws {
        let root = makeStore()
        let released = Watched(false)
        do {
            let writer = ReleaseProbe(released)
            let child = root.with(NotesBoard(), reducer: NotesAction.reduce)
            child.persist(\.1.notes, to: writer)
            child.dispatch(.upsert(Note(1)))
            try await child.flush()
        }
        // A round after the child is gone lets go of its writer.
        try await root.flush()
        await released.wait(until: "the released child's writer to be freed") { $0 }
        #expect(released.value)
    }

    // MARK: Checked and sound: the raw-pointer after-reduce path

    @Test("A root whose state is itself an entity store")
    func rootStateIsTheEntityStore() async throws {
        let store = StateStore<EntityStore<Note>, NotesAction>(EntityStore(), scheduler: scheduler) { notes, action in
            if case .upsert(let note) = action { notes.upsert(note) }
        }
        let writer = RecordingWriter()
        store.persist(\.self, to: writer)
        store.dispatch(.upsert(Note(1, "a")))
        try await store.flush()
        #expect(writer.stored == [1: Note(1, "a")])
        #expect(await store.state.changes.isEmpty)
    }

    @Test("A root state with padding around the entity store: the neighbours are untouched")
    func paddedTupleRoot() async throws {
        typealias Padded = (Int8, EntityStore<Note>, Int8, Bool)
        let initial: Padded = (7, EntityStore(), 9, false)
        let store = StateStore<Padded, NotesAction>(initial, scheduler: scheduler) { state, action in
            if case .upsert(let note) = action {
                state.1.upsert(note)
                state.3 = true
            }
        }
        let writer = RecordingWriter()
        store.persist(\.1, to: writer)
        _ = await store.send(.upsert(Note(1)))
        _ = await store.send(.upsert(Note(2)))
        try await store.flush()
        let state = await store.state
        #expect(state.0 == 7 && state.2 == 9 && state.3)
        #expect(state.1.ids == [1, 2] && state.1.changes.isEmpty)
        #expect(writer.stored == [1: Note(1), 2: Note(2)])
    }

    @Test("A child whose local state is the entity store, under a map(state:) view")
    func childOfAStateView() async throws {
        let root = makeStore()
        let view = root.map(state: { $0.counter })
        let child = view.with(EntityStore<Note>()) { notes, action in
            if case .upsert(let note) = action { notes.upsert(Note(note.id + 100)) }
        }
        let writer = RecordingWriter()
        child.persist(\.1, to: writer)
        child.dispatch(.upsert(Note(1)))
        try await child.flush()
        #expect(writer.stored == [101: Note(101)])
        #expect(await root.state.notes.ids == [1])
    }

    @Test("A child under a map(actions:) view, with a writer on the root too: each gets its own changes")
    func childOfAnActionView() async throws {
        let root = makeStore()
        let rootWriter = RecordingWriter(name: "root")
        root.persist(\.notes, to: rootWriter)
        let view: StateStore<NotesBoard, Note> = root.map(actions: { NotesAction.upsert($0) })
        let child = view.with(EntityStore<Note>()) { notes, note in notes.upsert(Note(note.id, "child")) }
        let childWriter = RecordingWriter(name: "child")
        child.persist(\.1, to: childWriter)
        _ = await child.send(Note(3))
        try await root.flush()
        #expect(childWriter.stored == [3: Note(3, "child")])
        #expect(rootWriter.stored == [3: Note(3)])
    }

    // MARK: Found on the way, outside CanopyPersistence

    @Test("dispatch(_:) on a child of a map(actions:) view reduces the action, as send(_:) does")
    func dispatchOnAChildOfAnActionView() async {
        let root = makeStore()
        let view: StateStore<NotesBoard, Note> = root.map(actions: { NotesAction.upsert($0) })
        let child = view.with(EntityStore<Note>()) { notes, note in notes.upsert(note) }
        child.dispatch(Note(4))
        let state = await child.state
        #expect(state.1.ids == [4])
        #expect(state.0.notes.ids == [4])
        _ = await child.send(Note(5))
        #expect(await child.state.1.ids.last == 5)
    }
}

/// A writer that says when it is freed.
private final class ReleaseProbe: StateWriter {
    let released: Watched<Bool>

    init(_ released: Watched<Bool>) {
        self.released = released
    }

    deinit {
        released.update { $0 = true }
    }

    func write(_ batch: WriteBatch<Note>) async throws {}
}
