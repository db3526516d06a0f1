import Canopy
import CanopyPersistence
import Testing

// The overview example of Docs/Persistence.md, kept compiling and checked.

private struct GuideNote: Identifiable, Equatable, Sendable {
    let id: Int
    var text: String
}

private struct GuideState: Equatable, Sendable {
    var notes = EntityStore<GuideNote>()
    var lastEdit: Int?
}

private enum GuideAction: Sendable {
    case write(id: Int, text: String)
    case delete(id: Int)
}

/// A writer that keeps the notes in memory: a stand-in for a database table.
private actor MemoryTable: StateWriter {
    private(set) var rows: [Int: GuideNote] = [:]
    private(set) var writes = 0

    func write(_ batch: WriteBatch<GuideNote>) async throws {
        writes += 1
        for note in batch.upserts { rows[note.id] = note }
        for id in batch.deletions { rows[id] = nil }
    }
}

@Suite("Docs/Persistence.md", .timeLimit(.minutes(1)))
struct PersistenceGuideTests {
    @Test("The overview: four actions, one flush, one batch with the latest values")
    func overview() async throws {
        let table = MemoryTable()
        let store = StateStore<GuideState, GuideAction>(GuideState()) { state, action in
            switch action {
            case .write(let id, let text):
                state.notes.upsert(GuideNote(id: id, text: text))
                state.lastEdit = id
            case .delete(let id):
                state.notes.remove(id: id)
            }
        }
        store.persist(\.notes, to: table)

        store.dispatch(.write(id: 1, text: "buy milk"))
        store.dispatch(.write(id: 2, text: "call Ann"))
        store.dispatch(.write(id: 1, text: "buy oat milk"))
        store.dispatch(.delete(id: 2))
        try await store.flush()
        #expect(await table.rows == [1: GuideNote(id: 1, text: "buy oat milk")])
        // The real clock's debounce may have written part of it before the flush; nothing is written twice.
        #expect(await table.writes <= 2)
    }
}
