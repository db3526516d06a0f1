#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What happened to a write: reported through ``PersistenceOptions/onEvent``, on the tree's queue.
public enum PersistenceEvent: Sendable {
    /// A batch was stored.
    case wrote(writer: String, upserts: Int, deletions: Int)
    /// A batch could not be stored; it stays pending, and is retried after `retryAfter` seconds with the
    /// changes made meanwhile. `attempt` counts this writer's failures in a row, from 1.
    case failed(writer: String, error: any Error, attempt: Int, retryAfter: TimeInterval)
    /// A writer threw a ``WriteConflict``: storage holds changes someone else made to the ids it names.
    /// Their changes were dropped from the batch, not retried; the rest of the batch is written next.
    /// Read storage back and merge it with ``EntityStore/mergeExternal(upserts:deletions:)``.
    case conflicted(writer: String, conflict: any Error)
    /// The store tree ended, its last writes failed, and these changes were never stored.
    case dropped(writer: String, error: any Error, upserts: Int, deletions: Int)
}
