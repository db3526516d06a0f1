import Canopy
import CanopyPersistence
import Testing

/// Writers on stores of every shape: a root whose state is the entity store, entities among padded
/// neighbours, children under `map(state:)` and `map(actions:)` views. The runtime reaches the entity
/// store by its offset in the state; these pin down that it finds the right bytes.
@Suite("Where the entities lie in the state", .timeLimit(.minutes(1)))
struct EntityPlacementTests {
    let scheduler = ManualScheduler()

    func makeStore(_ board: NotesBoard = NotesBoard()) -> StateStore<NotesBoard, NotesAction> {
        StateStore(board, scheduler: scheduler, reducer: NotesAction.reduce)
    }

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
