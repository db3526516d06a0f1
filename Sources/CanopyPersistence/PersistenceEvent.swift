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
    /// The store tree ended, its last writes failed, and these changes were never stored.
    case dropped(writer: String, error: any Error, upserts: Int, deletions: Int)
}
