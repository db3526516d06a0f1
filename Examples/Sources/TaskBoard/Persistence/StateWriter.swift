// The shape of CanopyPersistence's writer API (issue 16), until that product is on main: TaskBoard's
// writer is written against it, and this file is deleted when `import CanopyPersistence` replaces it.

/// The changes of an entity store since the last batch, for a ``StateWriter``.
struct WriteBatch<Entity: Identifiable & Sendable>: Sendable where Entity.ID: Sendable {
    /// The latest values of the ids inserted or changed since the last batch.
    var upserts: [Entity]
    /// The ids removed since the last batch.
    var deletions: [Entity.ID]
    /// The whole order, only when it changed (a move).
    var order: [Entity.ID]?
}

/// Stores batches of entity changes somewhere: a database, a file, a server.
protocol StateWriter<Entity>: Sendable {
    associatedtype Entity: Identifiable & Sendable where Entity.ID: Sendable
    /// Stores `batch`; throws to have it retried later, merged with what changed meanwhile.
    func write(_ batch: WriteBatch<Entity>) async throws
}
