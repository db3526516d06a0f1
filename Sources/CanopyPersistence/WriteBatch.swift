/// The changes a ``StateWriter`` stores in one go: the current values of the entities that changed, the
/// ids that were deleted, and the new order when it changed.
///
/// A batch merges every change since the last successful write: an entity changed ten times appears
/// once, with its latest value; an entity upserted then deleted appears only as deleted.
public struct WriteBatch<Entity: Identifiable & Sendable>: Sendable where Entity.ID: Sendable {
    /// The entities to insert or replace, with their values when the batch was taken, in the order
    /// their ids first changed.
    public var upserts: [Entity]
    /// The ids to delete, in the order they first changed (an id updated, then deleted, comes where it
    /// was updated).
    public var deletions: [Entity.ID]
    /// Every id in the store's order, when the order changed beyond appending and removing; otherwise
    /// `nil`.
    public var order: [Entity.ID]?

    /// Creates a batch.
    ///
    /// - Parameters:
    ///   - upserts: The entities to insert or replace.
    ///   - deletions: The ids to delete.
    ///   - order: The whole order, when it changed.
    public init(upserts: [Entity] = [], deletions: [Entity.ID] = [], order: [Entity.ID]? = nil) {
        self.upserts = upserts
        self.deletions = deletions
        self.order = order
    }

    /// Whether the batch has nothing to store.
    public var isEmpty: Bool {
        upserts.isEmpty && deletions.isEmpty && order == nil
    }
}

extension WriteBatch: Equatable where Entity: Equatable {}
