import Canopy
import CanopyPersistence

/// The state the persistence tests keep: notes, and a counter that no note depends on.
struct NotesBoard: Sendable, Equatable {
    var notes = EntityStore<Note>()
    var counter = 0
}

enum NotesAction: Sendable {
    case upsert(Note)
    case delete(Int)
    case bump
    case hydrate([Note])
    case replace([Note])
    case move(id: Int, to: Int)
    /// Merges notes read back from storage, without recording them.
    case mergeExternal(upserts: [Note], deletions: [Int])
    /// Upserts notes 1...count in one reduce.
    case fill(count: Int)

    static func reduce(_ state: inout NotesBoard, _ action: NotesAction) {
        switch action {
        case .upsert(let note): state.notes.upsert(note)
        case .delete(let id): state.notes.remove(id: id)
        case .bump: state.counter += 1
        case .hydrate(let notes): state.notes.hydrate(notes)
        case .replace(let notes): state.notes.replaceAll(with: notes)
        case .move(let id, let index): state.notes.move(id: id, to: index)
        case .mergeExternal(let upserts, let deletions):
            state.notes.mergeExternal(upserts: upserts, deletions: deletions)
        case .fill(let count):
            for id in 1...count {
                state.notes.upsert(Note(id, "note \(id)"))
            }
        }
    }
}

/// Events as text, for comparing.
func describe(_ event: PersistenceEvent) -> String {
    switch event {
    case .wrote(let writer, let upserts, let deletions):
        "wrote \(writer) +\(upserts) -\(deletions)"
    case .failed(let writer, let error, let attempt, let retryAfter):
        "failed \(writer) \(error) attempt \(attempt) retry in \(retryAfter)"
    case .conflicted(let writer, let conflict):
        "conflicted \(writer) \(conflict)"
    case .dropped(let writer, _, let upserts, let deletions):
        "dropped \(writer) +\(upserts) -\(deletions)"
    }
}
