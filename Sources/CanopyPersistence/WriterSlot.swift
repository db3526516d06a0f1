/// A registered writer as the coordinator sees it: its pending changes, behind a type-erased face.
protocol PersistenceSlot: AnyObject, Sendable {
    /// Where the writer stands in the write order: deeper stores first, then registration order.
    var rank: (depth: Int, registration: Int) { get }
    /// When to write, how to retry, who hears about it.
    var options: PersistenceOptions { get }
    /// On the queue: whether changes wait.
    var hasPending: Bool { get }
    /// Whether the store the writer watches is gone, so that no change can arrive any more.
    var isOrphaned: Bool { get }
    /// On the queue: the writer's failed writes in a row.
    var failures: Int { get set }
    /// On the queue: takes the pending changes for a write.
    func take() -> TakenBatch?
}

/// A batch taken out of a slot for one write, with the way to put it back if the write fails.
struct TakenBatch: Sendable {
    /// The slot the batch was taken from, for its failure count.
    let slot: any PersistenceSlot
    let writer: String
    let options: PersistenceOptions
    let upserts: Int
    let deletions: Int
    /// Off the queue: writes the batch.
    let write: @Sendable () async throws -> Void
    /// On the queue, after a failed write: puts the batch back under what changed meanwhile, without the
    /// changes of the ids given (those storage refused as a conflict).
    let restore: @Sendable (_ dropping: Set<AnyHashable>) -> Void
}

/// One writer registered on a store, and the changes that wait for it.
// Safety: Sendable by hand: its `var`s are confined to the tree's queue (note below).
final class WriterSlot<Writer: StateWriter>: PersistenceSlot, EntitySink, @unchecked Sendable {
    // Safety: `pending` and `failures` are read and written only on the tree's queue: by the after-reduce
    // step, which runs in the store's reducer, and by the coordinator, whose every member runs there. The `let`s
    // never change; `node` is a weak reference, which the runtime reads and clears atomically.
    let writer: Writer
    let options: PersistenceOptions
    let rank: (depth: Int, registration: Int)
    private weak var coordinator: PersistenceCoordinator?
    /// The node of the store the writer watches: the slot outlives it only until its changes are written.
    private weak var node: AnyObject?
    private var pending = PendingChanges<Writer.Entity>()
    private let operations: PendingOperations<Writer.Entity>
    var failures = 0

    init(
        writer: Writer,
        options: PersistenceOptions,
        rank: (depth: Int, registration: Int),
        coordinator: PersistenceCoordinator,
        node: AnyObject,
        operations: PendingOperations<Writer.Entity>
    ) {
        self.operations = operations
        self.writer = writer
        self.options = options
        self.rank = rank
        self.coordinator = coordinator
        self.node = node
    }

    /// The writer's name in events and errors: the options' name, or the writer's type.
    var name: String { options.name ?? String(describing: Writer.self) }

    var hasPending: Bool { !pending.isEmpty }

    var isOrphaned: Bool { node == nil }

    func receive(_ changes: ChangeSet<Writer.Entity.ID>, from store: EntityStore<Writer.Entity>) {
        operations.add(&pending, changes, store)
        if !pending.isEmpty {
            coordinator?.changesArrived(options)
        }
    }

    func take() -> TakenBatch? {
        guard !pending.isEmpty else { return nil }
        let taken = pending
        pending = PendingChanges(followingOrderOf: taken)
        let batch = operations.batch(taken)
        let writer = self.writer
        let merge = operations.merge
        return TakenBatch(
            slot: self,
            writer: name,
            options: options,
            upserts: batch.upserts.count,
            deletions: batch.deletions.count,
            write: { try await writer.write(batch) },
            restore: { [weak self] dropping in
                guard let self else { return }
                var older = taken
                if !dropping.isEmpty {
                    older.remove { dropping.contains(AnyHashable($0)) }
                }
                self.pending = merge(older, self.pending)
            }
        )
    }
}
