import Canopy
import CanopyPersistence
import Testing

// SPEC 2.6: a child store keeps its ancestors alive, so a store whose own handle is gone still reduces the
// actions sent to its children, and a writer registered on it must still write what they change.
@Suite("A writer whose store is gone while a child keeps its node", .timeLimit(.minutes(1)))
struct WriterLifetimeTests {
    let scheduler = ManualScheduler()

    // A writer is forgotten once its store's node is freed (`WriterSlot.isOrphaned`), checked by a round
    // that starts with nothing pending. The root's handle goes with its last store, but the child keeps
    // the root's node, whose reducer still changes what the writer watches: the writer must stay.
    @Test("A root's writer writes what actions sent to a child change, after the root's store is gone")
    func rootWriterOutlivesTheRootsStore() async throws {
        var root: StateStore<NotesBoard, NotesAction>? = StateStore(
            NotesBoard(),
            scheduler: scheduler,
            reducer: NotesAction.reduce
        )
        let child = root!.with(0) { _, _ in }
        let writer = RecordingWriter()
        root!.persist(\.notes, to: writer)
        root = nil
        try await child.flush()  // a round with nothing pending
        child.dispatch(.upsert(Note(1)))  // reduced by the root's reducer too
        try await child.flush()
        #expect(writer.stored == [1: Note(1)])
    }

    // The same for a child whose own store is gone while a child of it keeps it in the tree.
    @Test("A child's writer writes what actions sent to its own child change, after the child's store is gone")
    func childWriterOutlivesTheChildsStore() async throws {
        let root = StateStore<NotesBoard, NotesAction>(NotesBoard(), scheduler: scheduler, reducer: NotesAction.reduce)
        var child: StateStore<(NotesBoard, NotesBoard), NotesAction>? = root.with(
            NotesBoard(),
            reducer: NotesAction.reduce
        )
        let grandchild = child!.with(0) { _, _ in }
        let writer = RecordingWriter()
        child!.persist(\.1.notes, to: writer)
        child = nil
        try await grandchild.flush()  // a round with nothing pending
        grandchild.dispatch(.upsert(Note(1)))  // reduced by the child's reducer too
        try await grandchild.flush()
        #expect(writer.stored == [1: Note(1)])
    }
}
