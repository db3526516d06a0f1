public import Canopy

extension StateStore {
    /// Stores the entities at `keyPath` through `writer` from now on: after each reduce of this store,
    /// the changes its reducer made to them are taken, and written in debounced batches.
    ///
    /// Nothing compares states: the ``EntityStore`` records which ids its mutations touched, and the
    /// runtime takes those changes right after this store's reducer, on the tree's queue. A reduce that
    /// touches no entity costs one check. Changes already recorded in the state when the writer is
    /// registered are taken at once.
    ///
    /// The writes happen off the queue, one batch at a time for the whole tree, writers of deeper stores
    /// first, then in the order they were registered. A failed write is retried with backoff, merged
    /// with the changes made meanwhile; ``flush()`` writes now. When the tree ends, what is pending is
    /// written (with a few retries), and what still fails is reported as
    /// ``PersistenceEvent/dropped(writer:error:upserts:deletions:)``.
    ///
    /// ```swift
    /// let tasks = root.with(TasksState(items: EntityStore(database.loadAll())), reducer: TasksState.reducer)
    /// tasks.persist(\.1.items, to: TaskWriter(database))
    /// ```
    ///
    /// The registration takes effect on the tree's queue, in order with the actions: it returns at once,
    /// and every action sent after it from the same thread is covered. Its own work (taking the changes
    /// already recorded, and starting their debounce on the tree's clock) may still be under way when it
    /// returns; `_ = await store.state` waits for it. Do that before moving a `ManualScheduler` when
    /// the state held changes at registration, or the move may come before the debounce started.
    ///
    /// - Parameters:
    ///   - keyPath: The entities, as stored properties of this store's own state: for a child made with
    ///     `with(_:reducer:)`, a path into its local part (`\.1.items`), not into its parent's.
    ///   - writer: Stores the batches.
    ///   - options: The debounce, the retry policy and who hears about writes.
    @inlinable
    public func persist<Writer: StateWriter>(
        _ keyPath: WritableKeyPath<State, EntityStore<Writer.Entity>>,
        to writer: Writer,
        options: PersistenceOptions = PersistenceOptions()
    ) {
        // Inlined, so that the pending-change operations are compiled for the concrete entity type.
        register(keyPath, to: writer, options: options, operations: .specialized())
    }

    /// `persist(_:to:options:)`, with the operations its caller compiled.
    @usableFromInline
    func register<Writer: StateWriter>(
        _ keyPath: WritableKeyPath<State, EntityStore<Writer.Entity>>,
        to writer: Writer,
        options: PersistenceOptions,
        operations: PendingOperations<Writer.Entity>
    ) {
        guard let offset = ownStateOffset(of: keyPath) else {
            preconditionFailure(
                "persist(_:to:options:) needs a key path of stored properties into this store's own state "
                    + "(for a child, into its local part, `.1`), and \(keyPath) is not one: register the "
                    + "writer on the store that owns the entities"
            )
        }
        let flag = EntityStore<Writer.Entity>.changesFlagOffset
        withTreeAccess { access in
            let queue = access.queue
            let scheduler = access.scheduler
            let coordinator = access.attachment { PersistenceCoordinator(queue: queue, scheduler: scheduler) }
            let slot = WriterSlot(
                writer: writer,
                options: options,
                rank: coordinator.nextRank(depth: access.depth),
                coordinator: coordinator,
                node: access.nodeObject,
                queue: queue,
                operations: operations
            )
            coordinator.register(slot)
            let (drain, isNew) = coordinator.drain(of: access.nodeObject, at: offset) {
                EntityDrain<Writer.Entity>(queue: queue)
            }
            drain.add(slot)
            guard isNew else { return }
            // `flag` is the offset of the change set's `hasChanges`, a `Bool` stored inline in the entity
            // store (`changesFlagOffset`): the step runs only when the reduce recorded changes.
            access.addAfterReduce(at: offset, when: flag) { (store: inout EntityStore<Writer.Entity>) in
                drain.drain(&store)
            }
        }
    }

    /// Writes every pending change of this store's tree now, and returns once it is stored.
    ///
    /// Changes sent to the tree before this call are included. When a writer throws, the changes stay
    /// pending and are retried in the background; this call throws the error. By the time it returns or
    /// throws, what follows on the tree's clock is scheduled: the debounce of the changes made while it
    /// wrote, or the retry.
    ///
    /// - Throws: ``PersistenceError`` when a write failed.
    public func flush() async throws(PersistenceError) {
        let outcome: PersistenceError? = await withCheckedContinuation { continuation in
            let sent = withTreeAccess { access in
                guard let coordinator = access.attachment(ifPresent: PersistenceCoordinator.self) else {
                    continuation.resume(returning: nil)
                    return
                }
                coordinator.flush { error in continuation.resume(returning: error) }
            }
            if !sent {
                continuation.resume(returning: nil)
            }
        }
        if let outcome {
            throw outcome
        }
    }
}

extension EntityStore {
    /// Where the change set's flag lies in an entity store, so the after-reduce step tests it with one
    /// load.
    static var changesFlagOffset: Int {
        guard let offset = MemoryLayout<EntityStore>.offset(of: \EntityStore.recorded.hasChanges) else {
            preconditionFailure("Internal inconsistency: EntityStore.recorded.hasChanges is not stored inline")
        }
        return offset
    }
}
