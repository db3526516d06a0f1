/// What changed in an ``EntityStore`` since its changes were last taken: the ids upserted, the ids
/// deleted, and whether the order changed.
///
/// Each id appears once, with its latest change: an id upserted then deleted is deleted; an id deleted
/// then upserted again is upserted. ``ids`` lists them in the order they first changed, so a batch built
/// from a change set is the same on every run.
///
/// ```swift
/// var tasks = EntityStore<Task>()
/// tasks.upsert(Task(id: 1, title: "Write"))
/// tasks.remove(id: 2)
/// tasks.changes.upserted  // [1]
/// ```
public struct ChangeSet<ID: Hashable & Sendable>: Sendable, Equatable {
    /// The change an id went through.
    public enum Change: Sendable, Hashable {
        /// The entity was inserted or replaced; its current value is the one to store.
        case upserted
        /// The entity was removed.
        case deleted
    }

    /// Whether the change set holds anything. Kept as a stored property so the runtime can test it with
    /// one load, whatever `ID` is.
    @usableFromInline var hasChanges = false
    @usableFromInline var changes: [ID: Change] = [:]
    @usableFromInline var sequence: [ID] = []
    @usableFromInline var changedOrder = false

    /// An empty change set.
    @inlinable
    public init() {}

    /// Whether the order of the entities changed beyond appending and removing: a move, an insertion
    /// before the end, or a replacement in another order.
    @inlinable
    public var orderChanged: Bool { changedOrder }

    /// Whether nothing changed.
    @inlinable
    public var isEmpty: Bool { !hasChanges }

    /// The ids that changed, in the order they first changed.
    @inlinable
    public var ids: [ID] { sequence }

    /// The ids whose latest change is an upsert, in the order they first changed.
    @inlinable
    public var upserted: [ID] { sequence.filter { changes[$0] == .upserted } }

    /// The ids whose latest change is a deletion, in the order they first changed.
    @inlinable
    public var deleted: [ID] { sequence.filter { changes[$0] == .deleted } }

    /// The latest change of `id`, or `nil` when it did not change.
    @inlinable
    public subscript(id: ID) -> Change? { changes[id] }

    /// Records that `id` now has `change`, replacing what was recorded for it.
    @inlinable
    mutating func record(_ change: Change, for id: ID) {
        if changes.updateValue(change, forKey: id) == nil {
            sequence.append(id)
        }
        hasChanges = true
    }

    /// Records that the order changed.
    @inlinable
    mutating func recordOrderChange() {
        changedOrder = true
        hasChanges = true
    }

    /// Adds the changes of `later`, which happened after these: its change of an id wins.
    ///
    /// - Parameter later: The newer changes.
    public mutating func formUnion(_ later: ChangeSet) {
        for id in later.sequence {
            if let change = later.changes[id] {
                record(change, for: id)
            }
        }
        if later.orderChanged {
            recordOrderChange()
        }
    }

    /// The same change for each id, and the same order flag; the order in which ids first changed does
    /// not count.
    public static func == (lhs: ChangeSet, rhs: ChangeSet) -> Bool {
        lhs.changedOrder == rhs.changedOrder && lhs.changes == rhs.changes
    }
}
