import CanopyPersistence
import Logging

/// Writes the board's changed tasks to ``TaskDatabase``: each batch is one transaction that writes the
/// changed columns of the changed tasks and deletes the removed ones by id, so a batch never touches a
/// task, or a field, another process stored meanwhile.
///
/// The board is ordered by id (ids only grow), so a batch's `order` is not stored: TaskBoard never
/// moves a task, and ``TaskDatabase/loadAll()`` gives the tasks back in id order.
struct TaskWriter: StateWriter {
    let database: TaskDatabase
    /// Where each stored batch is logged, at debug level (`--log-level debug`): the ids a crash can no
    /// longer lose.
    var logger: Logger?

    /// Applies `batch`; throws a ``TaskDatabaseError`` (locked, read-only, full disk…) for the runtime to
    /// report and retry, or a `WriteConflict` naming the tasks another process deleted, which the runtime
    /// drops from the batch instead of writing them back.
    func write(_ batch: WriteBatch<TaskItem>) async throws {
        let gone = try await database.apply(upserts: batch.upserts, deletions: batch.deletions)
        guard gone.isEmpty else {
            logger?.debug("a batch for \(database.path) met tasks deleted by another session: \(gone)")
            throw WriteConflict(ids: gone, reason: "deleted by another session")
        }
        logger?.debug(
            "stored a batch in \(database.path): upserted \(batch.upserts.map(\.id)), deleted \(batch.deletions)"
        )
    }
}
