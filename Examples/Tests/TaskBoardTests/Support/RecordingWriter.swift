import CanopyPersistence
import Synchronization

@testable import TaskBoard

/// A writer that keeps every batch the board gives it, fails the first `failures` writes, and lets a
/// test wait for its attempts.
final class RecordingWriter: StateWriter, Sendable {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device" }
    }

    private struct Book {
        var failuresLeft: Int
        var attempts = 0
        var batches: [WriteBatch<TaskItem>] = []
        var waiters: [(attempts: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let book: Mutex<Book>

    init(failures: Int = 0) {
        book = Mutex(Book(failuresLeft: failures))
    }

    var batches: [WriteBatch<TaskItem>] { book.withLock { $0.batches } }
    var attempts: Int { book.withLock { $0.attempts } }

    /// The tasks stored so far, applying every batch in order, by id.
    var stored: [TaskItem] {
        var tasks: [Int: TaskItem] = [:]
        for batch in batches {
            for id in batch.deletions { tasks[id] = nil }
            for task in batch.upserts { tasks[task.id] = task }
        }
        return tasks.values.sorted { $0.id < $1.id }
    }

    func write(_ batch: WriteBatch<TaskItem>) async throws {
        let (fail, ready) = book.withLock { book in
            book.attempts += 1
            let fail = book.failuresLeft > 0
            if fail {
                book.failuresLeft -= 1
            } else {
                book.batches.append(batch)
            }
            let attempts = book.attempts
            let ready = book.waiters.filter { $0.attempts <= attempts }.map(\.continuation)
            book.waiters.removeAll { $0.attempts <= attempts }
            return (fail, ready)
        }
        for waiter in ready { waiter.resume() }
        if fail { throw DiskFull() }
    }

    /// Returns once `count` attempts in all have ended (the suite's time limit bounds the wait).
    func waitForAttempts(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = book.withLock { book in
                guard book.attempts < count else { return true }
                book.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
