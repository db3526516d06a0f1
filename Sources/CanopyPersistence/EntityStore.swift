/// An ordered collection of entities, keyed by id, that records which ids its mutations changed.
///
/// Keep one in a store's state and mutate it in reducers; a writer registered with
/// ``Canopy/StateStore/persist(_:to:options:)`` then stores what changed, without comparing states:
/// after each reduce the runtime takes the ``changes`` and empties them.
///
/// ```swift
/// struct BoardState: Sendable {
///     var tasks = EntityStore<TaskItem>()
/// }
///
/// let board = StateStore<BoardState, BoardAction>(BoardState()) { state, action in
///     switch action {
///     case .add(let task): state.tasks.upsert(task)
///     case .delete(let id): state.tasks.remove(id: id)
///     }
/// }
/// board.persist(\.tasks, to: TaskWriter(database))
/// ```
///
/// Creating a store from entities, and ``hydrate(_:)``, replace the contents without recording anything:
/// that is how state loaded from storage comes in. Every other mutation records the ids it touched.
///
/// Two entity stores are equal when they hold equal entities in the same order; their pending changes
/// do not count.
public struct EntityStore<Entity: Identifiable & Sendable>: Sendable where Entity.ID: Sendable {
    // Stored behind computed properties so that the mutations below can be inlined into reducers, and
    // specialised for the entity type there.
    @usableFromInline var orderedIDs: [Entity.ID]
    @usableFromInline var values: [Entity.ID: Entity]
    @usableFromInline var recorded = ChangeSet<Entity.ID>()

    /// An empty store.
    @inlinable
    public init() {
        orderedIDs = []
        values = [:]
    }

    /// The ids, in order.
    @inlinable
    public var ids: [Entity.ID] { orderedIDs }

    /// The changes since they were last taken (by the runtime, after each reduce, when a writer watches
    /// this store).
    @inlinable
    public var changes: ChangeSet<Entity.ID> { recorded }

    /// A store holding `entities`, in order, with no changes recorded: for state loaded from storage.
    ///
    /// - Parameter entities: The entities; their ids must be unique.
    public init(_ entities: some Sequence<Entity>) {
        self.init()
        load(entities, caller: "EntityStore.init(_:)")
    }

    /// The entity with `id`, or `nil`. Setting a value upserts it (keeping its place, or appending it);
    /// setting `nil` removes the entity.
    ///
    /// - Parameter id: The entity's id.
    @inlinable
    public subscript(id id: Entity.ID) -> Entity? {
        get { values[id] }
        set {
            if let newValue {
                precondition(
                    newValue.id == id,
                    "EntityStore[id: \(id)] was set to an entity whose id is \(newValue.id)"
                )
                upsert(newValue)
            } else {
                remove(id: id)
            }
        }
    }

    /// Whether an entity with `id` is in the store.
    @inlinable
    public func contains(id: Entity.ID) -> Bool {
        values[id] != nil
    }

    /// The position of the entity with `id`, or `nil`. It takes time proportional to the count.
    @inlinable
    public func index(id: Entity.ID) -> Int? {
        guard values[id] != nil else { return nil }
        return orderedIDs.firstIndex(of: id)
    }

    // MARK: Mutations that record changes

    /// Adds `entity` at the end, or at `index`, unless an entity with its id is already there.
    ///
    /// - Parameters:
    ///   - entity: The new entity.
    ///   - index: Where to insert it, in `0...count`; `nil` appends it.
    /// - Returns: `false`, with nothing changed, when the id was taken.
    @discardableResult
    @inlinable
    public mutating func insert(_ entity: Entity, at index: Int? = nil) -> Bool {
        guard values[entity.id] == nil else { return false }
        let position = index ?? orderedIDs.count
        precondition(
            (0...orderedIDs.count).contains(position),
            "EntityStore.insert(_:at:) got index \(position) for a store of \(orderedIDs.count) entities"
        )
        values[entity.id] = entity
        orderedIDs.insert(entity.id, at: position)
        recorded.record(.upserted, for: entity.id)
        if position != orderedIDs.count - 1 {
            recorded.recordOrderChange()
        }
        return true
    }

    /// Replaces the entity with `entity`'s id, in place, or appends `entity` if there is none.
    ///
    /// - Parameter entity: The new value.
    @inlinable
    public mutating func upsert(_ entity: Entity) {
        if values.updateValue(entity, forKey: entity.id) == nil {
            orderedIDs.append(entity.id)
        }
        recorded.record(.upserted, for: entity.id)
    }

    /// Changes the entity with `id` in place.
    ///
    /// - Parameters:
    ///   - id: The entity's id.
    ///   - body: The change; it must keep the id.
    /// - Returns: What `body` returned, or `nil` (with nothing changed) when there is no such entity.
    @discardableResult
    @inlinable
    public mutating func update<Result>(id: Entity.ID, _ body: (inout Entity) throws -> Result) rethrows -> Result? {
        guard var entity = values[id] else { return nil }
        // Taken out first, so that `body` mutates the only copy.
        values[id] = nil
        defer {
            precondition(entity.id == id, "EntityStore.update(id: \(id)) changed the entity's id to \(entity.id)")
            values[id] = entity
            recorded.record(.upserted, for: id)
        }
        return try body(&entity)
    }

    /// Removes the entity with `id`.
    ///
    /// - Parameter id: The entity's id.
    /// - Returns: The removed entity, or `nil` (with nothing changed) when there was none.
    @discardableResult
    @inlinable
    public mutating func remove(id: Entity.ID) -> Entity? {
        guard let removed = values.removeValue(forKey: id) else { return nil }
        if let position = orderedIDs.firstIndex(of: id) {
            orderedIDs.remove(at: position)
        }
        recorded.record(.deleted, for: id)
        return removed
    }

    /// Removes every entity for which `shouldBeRemoved` is true, in one pass.
    ///
    /// When `shouldBeRemoved` throws, the entities it removed before stay removed (and recorded), and the
    /// others stay.
    ///
    /// - Parameter shouldBeRemoved: Says whether an entity goes.
    @inlinable
    public mutating func removeAll(where shouldBeRemoved: (Entity) throws -> Bool) rethrows {
        var kept: [Entity.ID] = []
        kept.reserveCapacity(orderedIDs.count)
        var next = orderedIDs.startIndex
        // When `shouldBeRemoved` throws, the ids not looked at yet stay: `ids` keeps matching the entities.
        defer {
            kept += orderedIDs[next...]
            orderedIDs = kept
        }
        while next < orderedIDs.endIndex {
            let id = orderedIDs[next]
            // Safety net only: `values` holds every id of `ids`.
            if let entity = values[id] {
                if try shouldBeRemoved(entity) {
                    values[id] = nil
                    recorded.record(.deleted, for: id)
                } else {
                    kept.append(id)
                }
            }
            next += 1
        }
    }

    /// Moves the entity with `id` to `index`, counted after it is taken out.
    ///
    /// - Parameters:
    ///   - id: The entity's id.
    ///   - index: Its new position, in `0..<count`.
    @inlinable
    public mutating func move(id: Entity.ID, to index: Int) {
        guard let from = self.index(id: id) else { return }
        precondition(
            orderedIDs.indices.contains(index),
            "EntityStore.move(id:to:) got index \(index) for a store of \(orderedIDs.count) entities"
        )
        guard from != index else { return }
        orderedIDs.remove(at: from)
        orderedIDs.insert(id, at: index)
        recorded.recordOrderChange()
    }

    /// Replaces the contents with `entities`, recording what differs: the ids that are gone as deleted,
    /// the entities that are new or changed as upserted, and the order if it changed.
    ///
    /// When `Entity` is `Equatable`, an entity equal to the one it replaces is not recorded, so a writer
    /// never stores a copy of what did not change (which could undo a change made to it in storage by
    /// someone else). Otherwise every entity given is recorded as upserted.
    ///
    /// Use it when new contents come from elsewhere and must be stored (a sync, an import); use
    /// ``hydrate(_:)`` for contents that come from the storage itself.
    ///
    /// - Parameter entities: The new contents; their ids must be unique.
    @inlinable
    public mutating func replaceAll(with entities: some Sequence<Entity>) {
        let oldIDs = orderedIDs
        let oldValues = values
        load(entities, caller: "EntityStore.replaceAll(with:)")
        for id in oldIDs where values[id] == nil {
            recorded.record(.deleted, for: id)
        }
        for id in orderedIDs {
            if let old = oldValues[id], let new = values[id], Self.areKnownEqual(old, new) {
                continue
            }
            recorded.record(.upserted, for: id)
        }
        // Unchanged order: the old entities that stayed, in their old order, then the new ones.
        let unchanged = oldIDs.filter { values[$0] != nil } + orderedIDs.filter { oldValues[$0] == nil }
        if unchanged != orderedIDs {
            recorded.recordOrderChange()
        }
    }

    // MARK: Without recording

    /// Replaces the contents with `entities` without recording any change: for state loaded from the
    /// storage a writer writes to. Changes recorded before stay recorded.
    ///
    /// - Parameter entities: The new contents; their ids must be unique.
    @inlinable
    public mutating func hydrate(_ entities: some Sequence<Entity>) {
        load(entities, caller: "EntityStore.hydrate(_:)")
    }

    /// Merges entities read back from storage, changed there by someone else (another process on the
    /// same database), without recording them: a writer does not store them again.
    ///
    /// Each entity of `upserts` replaces the one with its id, in place, or is appended; each id of
    /// `deletions` is removed. An id whose change is recorded here and not yet taken keeps its local
    /// value: that change is still to be written, and the writer decides what storage keeps (it may
    /// report a ``WriteConflict``). When a writer watches the store, the runtime takes the changes after
    /// each reduce, so this covers the changes made earlier in the same reduce; changes already handed to
    /// a writer are out of the store's view: call ``Canopy/StateStore/flush()`` before reading storage
    /// back, so that what is read includes them.
    ///
    /// ```swift
    /// case .reloaded(let rows, let gone):
    ///     state.tasks.mergeExternal(upserts: rows, deletions: gone)
    /// ```
    ///
    /// - Parameters:
    ///   - upserts: Entities as storage now holds them; their ids must be unique.
    ///   - deletions: Ids storage no longer holds.
    /// - Returns: The ids left as they were because a local change of them is recorded, in the order
    ///   given.
    @discardableResult
    @inlinable
    public mutating func mergeExternal(
        upserts: some Sequence<Entity>,
        deletions: some Sequence<Entity.ID> = [Entity.ID]()
    ) -> [Entity.ID] {
        var kept: [Entity.ID] = []
        var seen = Set<Entity.ID>()
        for entity in upserts {
            precondition(
                seen.insert(entity.id).inserted,
                "EntityStore.mergeExternal(upserts:deletions:) got id \(entity.id) twice"
            )
            guard recorded[entity.id] == nil else {
                kept.append(entity.id)
                continue
            }
            if values.updateValue(entity, forKey: entity.id) == nil {
                orderedIDs.append(entity.id)
            }
        }
        var removed = Set<Entity.ID>()
        for id in deletions {
            guard recorded[id] == nil else {
                kept.append(id)
                continue
            }
            if values.removeValue(forKey: id) != nil {
                removed.insert(id)
            }
        }
        if !removed.isEmpty {
            orderedIDs.removeAll(where: removed.contains)
        }
        return kept
    }

    /// Returns the changes recorded so far, and forgets them.
    ///
    /// When a writer watches the store, the runtime calls it right after each reduce: a reducer that
    /// called it would take the changes from the writers. It is for tests of reducers, between steps, and
    /// for code that tracks changes without a writer.
    @inlinable
    public mutating func takeChanges() -> ChangeSet<Entity.ID> {
        defer { recorded = ChangeSet() }
        return recorded
    }

    /// Whether `a` and `b` are known to be equal: `Entity` is `Equatable` and they are equal.
    @usableFromInline
    static func areKnownEqual(_ a: Entity, _ b: Entity) -> Bool {
        guard let a = a as? any Equatable else { return false }
        return a.isEqual(to: b)
    }

    @usableFromInline
    mutating func load(_ entities: some Sequence<Entity>, caller: String) {
        var newIDs: [Entity.ID] = []
        var newValues: [Entity.ID: Entity] = [:]
        newIDs.reserveCapacity(entities.underestimatedCount)
        for entity in entities {
            precondition(newValues.updateValue(entity, forKey: entity.id) == nil, "\(caller) got id \(entity.id) twice")
            newIDs.append(entity.id)
        }
        orderedIDs = newIDs
        values = newValues
    }
}

extension EntityStore: RandomAccessCollection {
    /// The position of the first entity: 0.
    @inlinable
    public var startIndex: Int { 0 }
    /// The position after the last entity: the count.
    @inlinable
    public var endIndex: Int { orderedIDs.count }

    /// The entity at `position`, in order.
    @inlinable
    public subscript(position: Int) -> Entity {
        // Safety net only: `values` holds every id of `ids`.
        guard let entity = values[orderedIDs[position]] else {
            preconditionFailure("Internal inconsistency: EntityStore lost the entity \(orderedIDs[position])")
        }
        return entity
    }
}

extension EntityStore: Equatable where Entity: Equatable {
    /// Equal entities in the same order; pending changes do not count.
    public static func == (lhs: EntityStore, rhs: EntityStore) -> Bool {
        lhs.orderedIDs == rhs.orderedIDs && lhs.values == rhs.values
    }
}

extension EntityStore: Hashable where Entity: Hashable {
    /// Hashes the entities in order; pending changes do not count.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ids)
        for id in orderedIDs {
            hasher.combine(values[id])
        }
    }
}

extension EntityStore: ExpressibleByArrayLiteral {
    /// A store holding the entities listed, with no changes recorded.
    public init(arrayLiteral elements: Entity...) {
        self.init(elements)
    }
}

extension EntityStore: CustomStringConvertible {
    /// The entities, in order.
    public var description: String {
        "EntityStore(\(Array(self)))"
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
