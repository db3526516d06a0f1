import Canopy
import CanopyPersistence
import Testing

/// The writers of one tree: each keeps its own delay, name and attempt count, and a released child's
/// writer goes once its changes are written.
@Suite("Writers of one tree", .timeLimit(.minutes(1)))
struct TreeWritersTests {
    let scheduler = ManualScheduler()

    func makeStore(_ board: NotesBoard = NotesBoard()) -> StateStore<NotesBoard, NotesAction> {
        StateStore(board, scheduler: scheduler, reducer: NotesAction.reduce)
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
        // What is pending is written when the store is released, and Swift may release a local right after
        // its last use: the store is held so that the write checked is the one `maxDelay` started.
        withExtendedLifetime(store) {}
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
