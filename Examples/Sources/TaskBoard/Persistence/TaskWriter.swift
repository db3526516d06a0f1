import CanopyPersistence
import Logging

/// Writes the board's changed tasks to ``TaskDatabase``: each batch is one transaction that upserts the
/// changed tasks and deletes the removed ones by id, so a batch never touches a task another process
/// stored meanwhile.
///
/// The board is ordered by id (ids only grow), so a batch's `order` is not stored: TaskBoard never
/// moves a task, and ``TaskDatabase/loadAll()`` gives the tasks back in id order.
struct TaskWriter: StateWriter {
    let database: TaskDatabase
    /// Where each stored batch is logged, at debug level (`--log-level debug`): the ids a crash can no
    /// longer lose.
    var logger: Logger?

    /// Applies `batch`; throws a ``TaskDatabaseError`` (locked, read-only, full disk…) for the runtime to
    /// report and retry.
    func write(_ batch: WriteBatch<TaskItem>) async throws {
        try await database.apply(upserts: batch.upserts, deletions: batch.deletions)
        logger?.debug(
            "stored a batch in \(database.path): upserted \(batch.upserts.map(\.id)), deleted \(batch.deletions)"
        )
    }
}
