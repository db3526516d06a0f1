import Canopy
import CanopyPersistence
import CanopyTestSupport
import Testing

// What is pending is written when the store is released, and Swift may release a local right after its
// last use, so a test that checks when writes happen holds its store until then.
@Suite("persist(_:to:) and flush()", .timeLimit(.minutes(1)))
struct PersistTests {
    let scheduler = ManualScheduler()

    func makeStore(_ board: NotesBoard = NotesBoard()) -> StateStore<NotesBoard, NotesAction> {
        StateStore(board, scheduler: scheduler, reducer: NotesAction.reduce)
    }

    func recordEvents() -> (Watched<[String]>, PersistenceOptions) {
        let events = Watched<[String]>([])
        let options = PersistenceOptions(debounce: 0.1, maxDelay: 1) { event in
            events.update { $0.append(describe(event)) }
        }
        return (events, options)
    }

    @Test("Changes are written once the store has been quiet for the debounce, merged into one batch")
    func debouncedBatch() async {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        _ = await store.send(.upsert(Note(1, "a")))
        _ = await store.send(.upsert(Note(2, "b")))
        _ = await store.send(.upsert(Note(1, "a2")))
        scheduler.advance(by: 0.05)
        _ = await store.send(.delete(2))
        scheduler.advance(by: 0.09)
        #expect(writer.attempts == 0)

        scheduler.advance(by: 0.01)
        await writer.waitForAttempts(1)
        #expect(writer.batches == [WriteBatch(upserts: [Note(1, "a2")], deletions: [2])])
        withExtendedLifetime(store) {}
    }

    @Test("Under a steady stream of changes, a change waits at most maxDelay")
    func maxDelay() async {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer, options: PersistenceOptions(debounce: 0.1, maxDelay: 0.3))
        for id in 1...5 {
            _ = await store.send(.upsert(Note(id)))
            scheduler.advance(by: 0.08)
        }
        await writer.waitForAttempts(1)
        // Written at 0.3 s: the changes of 0, 0.08, 0.16 and 0.24 s.
        #expect(writer.batches.first?.upserts.map(\.id) == [1, 2, 3, 4])
    }

    @Test("A reduce that touches no entity writes nothing; hydration writes nothing")
    func untouchedAndHydrated() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1)])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        _ = await store.send(.bump)
        _ = await store.send(.hydrate([Note(5), Note(6)]))
        try await store.flush()
        scheduler.advance(by: 10)
        #expect(writer.attempts == 0)
        #expect(await store.state.notes.ids == [5, 6])
    }

    @Test("Changes already recorded in the state when the writer is registered are written")
    func changesBeforeRegistration() async throws {
        var board = NotesBoard()
        board.notes.upsert(Note(1, "made before"))
        let store = makeStore(board)
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        try await store.flush()
        #expect(writer.stored == [1: Note(1, "made before")])
    }

    @Test("persist takes effect on the queue: once `await store.state` returns, moving the clock writes")
    func registrationIsAwaitable() async {
        var board = NotesBoard()
        board.notes.upsert(Note(1, "made before"))
        let store = makeStore(board)
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer, options: PersistenceOptions(debounce: 0.1, maxDelay: 1))
        store.dispatch(.upsert(Note(2, "sent right after")))  // after the registration, from this thread
        _ = await store.state  // the registration, and the action, have run on the queue
        scheduler.advance(by: 0.1)
        await writer.waitForAttempts(1)
        #expect(writer.stored == [1: Note(1, "made before"), 2: Note(2, "sent right after")])
        withExtendedLifetime(store) {}
    }

    @Test("flush() writes at once and returns once stored; with nothing pending it returns at once")
    func flushNow() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        try await store.flush()
        #expect(writer.attempts == 0)
        store.dispatch(.upsert(Note(1)))
        store.dispatch(.move(id: 1, to: 0))
        try await store.flush()
        #expect(writer.batches == [WriteBatch(upserts: [Note(1)])])
        // The debounce that the change started does not write again.
        scheduler.advance(by: 1)
        #expect(writer.attempts == 1)
        withExtendedLifetime(store) {}
    }

    @Test("1,000 entities changed by one action are drained in one pass into one batch")
    func largeBatch() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        store.dispatch(.fill(count: 1_000))
        try await store.flush()
        #expect(writer.batches.count == 1)
        #expect(writer.batches.first?.upserts.map(\.id) == Array(1...1_000))
    }

    @Test("A move writes the whole order")
    func moveWritesOrder() async throws {
        let store = makeStore(NotesBoard(notes: EntityStore([Note(1), Note(2), Note(3)])))
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        store.dispatch(.move(id: 3, to: 0))
        try await store.flush()
        #expect(writer.batches == [WriteBatch(order: [3, 1, 2])])
    }

    @Test("A failed write is retried with backoff, merged with the changes made meanwhile: nothing is lost")
    func retryLosesNothing() async throws {
        let store = makeStore()
        let (events, options) = recordEvents()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer, options: options)
        writer.failNext(2)
        store.dispatch(.upsert(Note(1, "one")))
        store.dispatch(.upsert(Note(2, "two")))
        await #expect(throws: PersistenceError.self) { try await store.flush() }
        await events.wait(until: "the first failure") { $0.count == 1 }

        // Meanwhile: note 2 changes again, note 1 goes, note 3 comes.
        _ = await store.send(.upsert(Note(2, "two again")))
        _ = await store.send(.delete(1))
        _ = await store.send(.upsert(Note(3, "three")))
        // The debounce does not write while a retry is scheduled; the retry, after 0.1 s, fails again.
        scheduler.advance(by: 0.1)
        await events.wait(until: "the second failure") { $0.count == 2 }
        scheduler.advance(by: 0.19)
        #expect(writer.attempts == 2)
        scheduler.advance(by: 0.01)
        await events.wait(until: "the write") { $0.count == 3 }

        #expect(
            events.value == [
                "failed RecordingWriter Failure(attempt: 1) attempt 1 retry in 0.1",
                "failed RecordingWriter Failure(attempt: 2) attempt 2 retry in 0.2",
                "wrote RecordingWriter +2 -1",
            ]
        )
        #expect(writer.stored == [2: Note(2, "two again"), 3: Note(3, "three")])
        #expect(writer.batches == [WriteBatch(upserts: [Note(2, "two again"), Note(3, "three")], deletions: [1])])
        withExtendedLifetime(store) {}
    }

    @Test("flush() during a scheduled retry writes at once")
    func flushDuringRetry() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.failNext(1)
        store.dispatch(.upsert(Note(1)))
        await #expect(throws: PersistenceError.self) { try await store.flush() }
        try await store.flush()
        #expect(writer.stored == [1: Note(1)])
        #expect(writer.attempts == 2)
    }

    @Test("Writes run one at a time; a flush asked during a write waits for the next round")
    func oneAtATime() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.hold()
        _ = await store.send(.upsert(Note(1)))
        scheduler.advance(by: 0.1)
        await writer.waitForWriteInProgress()
        _ = await store.send(.upsert(Note(2)))

        async let flushed: Void = store.flush()
        // The second round cannot start before the first returns.
        _ = await store.state
        #expect(writer.book.value.writing == 1)
        writer.release()
        try await flushed
        #expect(writer.book.value.mostWritingAtOnce == 1)
        #expect(writer.batches.map { $0.upserts.map(\.id) } == [[1], [2]])
    }

    @Test("When flush() returns, the changes made during its round wait on the clock for their debounce")
    func changesMadeDuringARoundAreScheduledWhenFlushReturns() async throws {
        let store = makeStore()
        let writer = RecordingWriter()
        store.persist(\.notes, to: writer)
        writer.hold()
        store.dispatch(.upsert(Note(1)))
        async let flushed: Void = store.flush()
        await writer.waitForWriteInProgress()
        _ = await store.send(.upsert(Note(2)))
        writer.release()
        try await flushed
        // The debounce of note 2 was scheduled before flush() returned, so moving the clock now writes it.
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: 0.1)
        await writer.waitForAttempts(2)
        #expect(writer.batches.map { $0.upserts.map(\.id) } == [[1], [2]])
    }

    @Test("Writers are written deeper stores first, then in registration order")
    func writeOrder() async throws {
        let root = makeStore()
        let child = root.with(NotesBoard(), reducer: { state, action in NotesAction.reduce(&state, action) })
        let journal = LockedValue<[String]>([])
        let rootFirst = RecordingWriter(name: "root 1", journal: journal)
        let rootSecond = RecordingWriter(name: "root 2", journal: journal)
        let leaf = RecordingWriter(name: "leaf", journal: journal)
        root.persist(\.notes, to: rootFirst)
        root.persist(\.notes, to: rootSecond)
        child.persist(\.1.notes, to: leaf)
        child.dispatch(.upsert(Note(1)))
        try await root.flush()
        #expect(journal.withLock { $0 } == ["leaf", "root 1", "root 2"])
        #expect(leaf.stored == [1: Note(1)])
        #expect(rootFirst.stored == [1: Note(1)])
        // Both writers of one entity store get its changes.
        #expect(rootSecond.stored == [1: Note(1)])
        withExtendedLifetime(child) {}
    }

    @Test("A child's writer sees only the child's own entities")
    func childOwnState() async throws {
        let root = makeStore()
        let child = root.with(
            NotesBoard(),
            reducer: { state, action in
                if case .bump = action { state.notes.upsert(Note(99, "child")) }
            }
        )
        let writer = RecordingWriter()
        child.persist(\.1.notes, to: writer)
        root.dispatch(.upsert(Note(1)))
        child.dispatch(.bump)
        try await child.flush()
        #expect(writer.stored == [99: Note(99, "child")])
    }

    @Test("When the tree ends, what is pending is written")
    func writtenAtShutdown() async {
        let writer = RecordingWriter()
        do {
            let store = makeStore()
            store.persist(\.notes, to: writer)
            _ = await store.send(.upsert(Note(1, "last words")))
        }
        await writer.waitForAttempts(1)
        #expect(writer.stored == [1: Note(1, "last words")])
    }
}

@Suite("persist(_:to:) at the end of a tree, and misuse", .timeLimit(.minutes(1)))
struct PersistShutdownTests {
    func endTree(
        writer: RecordingWriter,
        scheduler: ManualScheduler,
        events: Watched<[String]>
    ) async {
        let options = PersistenceOptions(retryPolicy: .constant(1)) { event in
            events.update { $0.append(describe(event)) }
        }
        let store = StateStore<NotesBoard, NotesAction>(NotesBoard(), scheduler: scheduler, reducer: NotesAction.reduce)
        store.persist(\.notes, to: writer, options: options)
        _ = await store.send(.upsert(Note(1, "kept")))
    }

    @Test("A write that fails after the tree ended is retried on the tree's clock")
    func retriedAfterTheEnd() async {
        let scheduler = ManualScheduler()
        let events = Watched<[String]>([])
        let writer = RecordingWriter()
        writer.failNext(1)
        await endTree(writer: writer, scheduler: scheduler, events: events)
        await events.wait(until: "the failure") { $0.count == 1 }
        scheduler.advance(by: 1)
        await events.wait(until: "the write") { $0.count == 2 }
        #expect(events.value.last == "wrote RecordingWriter +1 -0")
        #expect(writer.stored == [1: Note(1, "kept")])
    }

    @Test("After the tree ended, a write that keeps failing is retried three times, then reported dropped")
    func droppedAfterTheEnd() async {
        let scheduler = ManualScheduler()
        let events = Watched<[String]>([])
        let writer = RecordingWriter()
        writer.failNext(100)
        await endTree(writer: writer, scheduler: scheduler, events: events)
        for failures in 1...3 {
            await events.wait(until: "failure \(failures)") { $0.count >= failures }
            scheduler.advance(by: 1)
        }
        await events.wait(until: "the drop") { $0.count == 4 }
        #expect(events.value.filter { $0.hasPrefix("failed") }.count == 3)
        #expect(events.value.last == "dropped RecordingWriter +1 -0")
        #expect(writer.attempts == 4)
    }

    @Test("A key path into a parent's part of a child's state stops the program, naming the fix", .exitTest)
    func keyPathIntoTheParent() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let root = StateStore<NotesBoard, NotesAction>(NotesBoard()) { state, action in
                NotesAction.reduce(&state, action)
            }
            let child = root.with(0) { count, _ in count += 1 }
            child.persist(\.0.notes, to: RecordingWriter())
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("register the writer on the store that owns the entities"))
    }
}
