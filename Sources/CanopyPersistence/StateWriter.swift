/// Stores the changes of one ``EntityStore`` in a state: in a database, a file, or over the network.
///
/// Register it with ``Canopy/StateStore/persist(_:to:options:)``. The runtime calls ``write(_:)`` off
/// the store's queue, with one batch at a time (the next call waits for this one to return), and never
/// with an empty batch. Throwing keeps the batch: it is retried with backoff, merged with the changes
/// made meanwhile, so a writer that fails loses nothing.
///
/// Make `write` idempotent: after a failure, the same upserts and deletions come again. Upserting by id
/// and deleting ids that may already be gone does that.
///
/// ```swift
/// struct TaskWriter: StateWriter {
///     let database: TaskDatabase
///
///     func write(_ batch: WriteBatch<TaskItem>) async throws {
///         try database.apply(upserts: batch.upserts, deletions: batch.deletions)
///     }
/// }
/// ```
public protocol StateWriter<Entity>: Sendable {
    /// The kind of entity the writer stores.
    associatedtype Entity: Identifiable & Sendable where Entity.ID: Sendable

    /// Stores `batch`, all of it or, by throwing, none of it.
    ///
    /// - Parameter batch: The changes since the last successful write.
    /// - Throws: Whatever kept the batch from being stored; the batch is then retried.
    func write(_ batch: WriteBatch<Entity>) async throws
}
