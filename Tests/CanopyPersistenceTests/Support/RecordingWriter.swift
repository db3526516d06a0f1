import Canopy
import CanopyPersistence
import Testing

/// A writer that keeps every batch it was given, fails when told to, holds its writes when told to,
/// and lets a test wait for its attempts.
final class RecordingWriter: StateWriter, Sendable {
    struct Failure: Error, Equatable {
        let attempt: Int
    }

    struct Book: Sendable {
        var batches: [WriteBatch<Note>] = []
        var failuresLeft = 0
        /// The ids the next write reports as a conflict, instead of storing its batch.
        var conflictNext: [Int]?
        /// Attempts that ended, successful or not.
        var attempts = 0
        var writing = 0
        var mostWritingAtOnce = 0
    }

    let name: String
    /// Every writer of a test appends its name here on each successful write.
    let journal: LockedValue<[String]>?
    let book = Watched(Book())
    private let gate = Watched(true)

    init(name: String = "writer", journal: LockedValue<[String]>? = nil) {
        self.name = name
        self.journal = journal
    }

    func write(_ batch: WriteBatch<Note>) async throws {
        book.update { book in
            book.writing += 1
            book.mostWritingAtOnce = max(book.mostWritingAtOnce, book.writing)
        }
        await gate.wait(until: "\(name) to be released") { $0 }
        let failure: (any Error)? = book.update { book in
            book.writing -= 1
            book.attempts += 1
            if let ids = book.conflictNext {
                book.conflictNext = nil
                return WriteConflict(ids: ids, reason: "changed by someone else")
            }
            guard book.failuresLeft == 0 else {
                book.failuresLeft -= 1
                return Failure(attempt: book.attempts)
            }
            book.batches.append(batch)
            journal?.withLock { $0.append(name) }
            return nil
        }
        if let failure {
            throw failure
        }
    }

    /// Makes the next `count` writes throw.
    func failNext(_ count: Int) {
        book.update { $0.failuresLeft = count }
    }

    /// Makes the next write report a conflict on `ids`, storing nothing.
    func conflictNext(_ ids: [Int]) {
        book.update { $0.conflictNext = ids }
    }

    /// Makes writes wait for ``release()``.
    func hold() {
        gate.update { $0 = false }
    }

    /// Lets the held writes, and the next ones, go on.
    func release() {
        gate.update { $0 = true }
    }

    var batches: [WriteBatch<Note>] { book.value.batches }
    var attempts: Int { book.value.attempts }

    /// The notes stored so far, applying every batch in order.
    var stored: [Int: Note] {
        var notes: [Int: Note] = [:]
        for batch in batches {
            for note in batch.upserts { notes[note.id] = note }
            for id in batch.deletions { notes[id] = nil }
        }
        return notes
    }

    /// Waits until `count` attempts in all have ended.
    func waitForAttempts(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        await book.wait(until: "attempt \(count) of \(name)", sourceLocation: sourceLocation) { $0.attempts >= count }
    }

    /// Waits until a write is in progress (and held).
    func waitForWriteInProgress(sourceLocation: SourceLocation = #_sourceLocation) async {
        await book.wait(until: "a write of \(name) to start", sourceLocation: sourceLocation) { $0.writing > 0 }
    }
}
