import CanopyPersistence
import Foundation
import Testing

@Suite("EntityStore and ChangeSet", .timeLimit(.minutes(1)))
struct EntityStoreTests {
    @Test("Loading and hydrating record nothing; every other mutation records its ids")
    func loadingRecordsNothing() {
        var notes = EntityStore([Note(1), Note(2)])
        #expect(notes.changes.isEmpty)
        notes.hydrate([Note(3), Note(4), Note(5)])
        #expect(notes.changes.isEmpty)
        #expect(notes.ids == [3, 4, 5])
        let literal: EntityStore<Note> = [Note(7)]
        #expect(literal.changes.isEmpty)

        notes.upsert(Note(4, "changed"))
        notes.upsert(Note(6))
        notes.remove(id: 3)
        #expect(notes.changes.upserted == [4, 6])
        #expect(notes.changes.deleted == [3])
        #expect(notes.changes.ids == [4, 6, 3])
        #expect(!notes.changes.orderChanged)
        #expect(Array(notes) == [Note(4, "changed"), Note(5), Note(6)])
    }

    @Test("The latest change of an id wins, in the order ids first changed")
    func latestChangeWins() {
        var notes = EntityStore<Note>()
        notes.upsert(Note(1))
        notes.upsert(Note(2))
        notes.remove(id: 1)
        notes.upsert(Note(2, "again"))
        notes.remove(id: 2)
        notes.upsert(Note(2, "back"))
        #expect(notes.changes.ids == [1, 2])
        #expect(notes.changes[1] == .deleted)
        #expect(notes.changes[2] == .upserted)
        #expect(notes[id: 2] == Note(2, "back"))
    }

    @Test("update, subscript and removeAll record the ids they touch, and nothing when they touch none")
    func updateAndSubscript() {
        var notes = EntityStore([Note(1), Note(2), Note(3)])
        #expect(notes.update(id: 9) { $0.text = "x" } == nil)
        notes.removeAll { $0.id > 5 }
        #expect(notes.changes.isEmpty)

        let length = notes.update(id: 2) { note -> Int in
            note.text = "two"
            return note.text.count
        }
        #expect(length == 3)
        notes[id: 3] = nil
        notes[id: 4] = Note(4, "four")
        notes.removeAll { $0.id == 1 }
        #expect(notes.changes.upserted == [2, 4])
        #expect(notes.changes.deleted == [3, 1])
        #expect(Array(notes) == [Note(2, "two"), Note(4, "four")])
        #expect(!notes.contains(id: 1))
        #expect(notes.index(id: 4) == 1)
    }

    @Test("Inserting keeps a taken id as it was; inserting before the end and moving change the order")
    func insertAndMove() {
        var notes = EntityStore([Note(1), Note(2)])
        let duplicate = notes.insert(Note(1, "duplicate"))
        #expect(!duplicate)
        #expect(notes.changes.isEmpty)
        let appended = notes.insert(Note(3))
        #expect(appended)
        #expect(!notes.changes.orderChanged)
        let first = notes.insert(Note(0), at: 0)
        #expect(first)
        #expect(notes.changes.orderChanged)
        #expect(notes.ids == [0, 1, 2, 3])

        var moved = EntityStore([Note(1), Note(2), Note(3)])
        moved.move(id: 3, to: 3 - 1)
        #expect(moved.changes.isEmpty)
        moved.move(id: 3, to: 0)
        #expect(moved.changes.orderChanged)
        #expect(moved.changes.ids.isEmpty)
        #expect(moved.ids == [3, 1, 2])
    }

    @Test("replaceAll records deletions, upserts and an order change only when the order changed")
    func replaceAllRecordsTheDifference() {
        var notes = EntityStore([Note(1), Note(2), Note(3)])
        notes.replaceAll(with: [Note(1), Note(3, "three"), Note(4)])
        #expect(notes.changes.deleted == [2])
        // Note 1 is given unchanged: not recorded, so no copy of it is written.
        #expect(notes.changes.upserted == [3, 4])
        #expect(!notes.changes.orderChanged)

        var reordered = EntityStore([Note(1), Note(2)])
        reordered.replaceAll(with: [Note(2), Note(1)])
        #expect(reordered.changes.orderChanged)
    }

    @Test("takeChanges hands the changes over once")
    func takeChanges() {
        var notes = EntityStore<Note>()
        notes.upsert(Note(1))
        let taken = notes.takeChanges()
        #expect(taken.upserted == [1])
        #expect(notes.changes.isEmpty)
        #expect(notes.takeChanges().isEmpty)
    }

    @Test("Equality and hashing look at the entities in order, not at pending changes")
    func equalityIgnoresChanges() {
        var changed = EntityStore<Note>()
        changed.upsert(Note(1))
        let loaded = EntityStore([Note(1)])
        #expect(changed == loaded)
        #expect(changed.hashValue == loaded.hashValue)
        #expect(EntityStore([Note(1), Note(2)]) != EntityStore([Note(2), Note(1)]))
    }

    @Test("ChangeSet.formUnion lets the later change of an id win")
    func formUnion() {
        var earlier = EntityStore([Note(1), Note(2)])
        earlier.remove(id: 1)
        earlier.upsert(Note(2, "x"))
        var later = EntityStore([Note(2)])
        later.upsert(Note(1))
        later.move(id: 1, to: 0)
        later.remove(id: 2)
        var union = earlier.changes
        union.formUnion(later.changes)
        #expect(union[1] == .upserted)
        #expect(union[2] == .deleted)
        #expect(union.ids == [1, 2])
        #expect(union.orderChanged)
    }

    @Test("Codable: an array of entities in order, with no changes after decoding; a repeated id is an error")
    func codable() throws {
        var notes = EntityStore([Note(2, "b"), Note(1, "a")])
        notes.upsert(Note(3, "c"))
        let data = try JSONEncoder().encode(notes)
        let decoded = try JSONDecoder().decode(EntityStore<Note>.self, from: data)
        #expect(decoded == notes)
        #expect(decoded.changes.isEmpty)
        #expect(decoded.ids == [2, 1, 3])

        let repeated = Data(#"[{"id":1,"text":"a"},{"id":1,"text":"b"}]"#.utf8)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(EntityStore<Note>.self, from: repeated)
        }
    }
}
