/// The changes of one entity store that wait for their write: each changed id with the value to
/// store (taken when the change was drained) or its deletion, and the order when it changed.
@usableFromInline
struct PendingChanges<Entity: Identifiable & Sendable>: Sendable where Entity.ID: Sendable {
    @usableFromInline
    enum Entry: Sendable {
        case upsert(Entity)
        case delete
    }

    @usableFromInline var entries: [Entity.ID: Entry] = [:]
    /// The ids, in the order they first changed, for batches that are the same on every run.
    @usableFromInline var sequence: [Entity.ID] = []
    /// The store's order as of the latest change, kept while the batch may need it.
    @usableFromInline var order: [Entity.ID]?
    /// Whether the order changed beyond appending and removing: the batch then carries ``order``.
    @usableFromInline var orderChanged = false
    /// Whether ``order`` follows every change even though the order did not change: set while a batch
    /// that carries an order is being written, so that if the write fails, the batch goes back under an
    /// order that lists what was appended or removed meanwhile.
    @usableFromInline var followsOrder = false

    /// No changes; `taken`, when given, is the batch just taken out for a write.
    @inlinable
    init(followingOrderOf taken: PendingChanges? = nil) {
        followsOrder = taken?.orderChanged ?? false
    }

    @inlinable
    var isEmpty: Bool {
        sequence.isEmpty && !orderChanged
    }

    /// Adds `changes`, just taken from `store`, with the current values of the upserted entities: one
    /// pass over the change set, whatever the size of the store.
    @inlinable
    mutating func add(_ changes: ChangeSet<Entity.ID>, from store: EntityStore<Entity>) {
        for id in changes.ids {
            // An id upserted and then removed in one reduce is recorded as deleted; if it is missing
            // anyway, deleting it is what storage needs.
            if changes[id] == .upserted, let entity = store[id: id] {
                set(.upsert(entity), for: id)
            } else {
                set(.delete, for: id)
            }
        }
        // Once an order waits, later appends and removals change it too: the batch's order lists every id
        // there is when it is written.
        if changes.orderChanged {
            orderChanged = true
        }
        if orderChanged || followsOrder {
            order = store.ids
        }
    }

    /// Puts these older changes under `newer`, which happened after them: for a batch whose write
    /// failed, merged with what changed meanwhile. `newer`'s entry for an id wins.
    @inlinable
    func merged(under newer: PendingChanges) -> PendingChanges {
        var result = self
        for id in newer.sequence {
            if let entry = newer.entries[id] {
                result.set(entry, for: id)
            }
        }
        if let order = newer.order {
            result.order = order
        }
        result.orderChanged = orderChanged || newer.orderChanged
        result.followsOrder = newer.followsOrder
        return result
    }

    /// Forgets the changes of the ids for which `isDropped` is true.
    mutating func remove(where isDropped: (Entity.ID) -> Bool) {
        sequence.removeAll { id in
            guard isDropped(id) else { return false }
            entries[id] = nil
            return true
        }
    }

    /// The batch a writer gets.
    @inlinable
    var batch: WriteBatch<Entity> {
        var batch = WriteBatch<Entity>(order: orderChanged ? order : nil)
        for id in sequence {
            switch entries[id] {
            case .upsert(let entity):
                batch.upserts.append(entity)
            case .delete:
                batch.deletions.append(id)
            case nil:
                preconditionFailure("Internal inconsistency: a pending change lost its id \(id)")
            }
        }
        return batch
    }

    @inlinable
    mutating func set(_ entry: Entry, for id: Entity.ID) {
        if entries.updateValue(entry, forKey: id) == nil {
            sequence.append(id)
        }
    }
}

/// What a writer's slot does with its pending changes, as closures made where ``StateStore/persist(_:to:options:)``
/// is inlined: compiled there for the concrete entity type, so the per-id dictionary work of a drain is
/// specialised instead of going through generic metadata for every id.
@usableFromInline
struct PendingOperations<Entity: Identifiable & Sendable>: Sendable where Entity.ID: Sendable {
    let add: @Sendable (inout PendingChanges<Entity>, ChangeSet<Entity.ID>, EntityStore<Entity>) -> Void
    let merge: @Sendable (_ older: PendingChanges<Entity>, _ newer: PendingChanges<Entity>) -> PendingChanges<Entity>
    let batch: @Sendable (PendingChanges<Entity>) -> WriteBatch<Entity>

    @usableFromInline
    init(
        add: @escaping @Sendable (inout PendingChanges<Entity>, ChangeSet<Entity.ID>, EntityStore<Entity>) -> Void,
        merge: @escaping @Sendable (PendingChanges<Entity>, PendingChanges<Entity>) -> PendingChanges<Entity>,
        batch: @escaping @Sendable (PendingChanges<Entity>) -> WriteBatch<Entity>
    ) {
        self.add = add
        self.merge = merge
        self.batch = batch
    }

    /// The operations, compiled where this is inlined.
    @inlinable
    static func specialized() -> PendingOperations {
        PendingOperations(
            add: { pending, changes, store in pending.add(changes, from: store) },
            merge: { older, newer in older.merged(under: newer) },
            batch: { pending in pending.batch }
        )
    }
}
