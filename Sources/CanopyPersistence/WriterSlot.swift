import Canopy
import Dispatch

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
final class WriterSlot<Writer: StateWriter>: PersistenceSlot, EntitySink, Sendable {
    /// What changes as the writer's changes come and go, confined to the tree's queue: the after-reduce
    /// step runs in the store's reducer, and the coordinator's every member runs there.
    private struct State {
        var pending = PendingChanges<Writer.Entity>()
        var failures = 0
        /// The node of the store the writer watches: the slot outlives it only until its changes are
        /// written.
        weak var node: AnyObject?
    }

    let writer: Writer
    let options: PersistenceOptions
    let rank: (depth: Int, registration: Int)
    private weak let coordinator: PersistenceCoordinator?
    private let operations: PendingOperations<Writer.Entity>
    private let state: QueueConfined<State>

    init(
        writer: Writer,
        options: PersistenceOptions,
        rank: (depth: Int, registration: Int),
        coordinator: PersistenceCoordinator,
        node: AnyObject,
        queue: DispatchQueue,
        operations: PendingOperations<Writer.Entity>
    ) {
        self.operations = operations
        self.writer = writer
        self.options = options
        self.rank = rank
        self.coordinator = coordinator
        self.state = QueueConfined(State(node: node), queue: queue)
    }

    /// The writer's name in events and errors: the options' name, or the writer's type.
    var name: String { options.name ?? String(describing: Writer.self) }

    var hasPending: Bool { withState { !$0.pending.isEmpty } }

    var isOrphaned: Bool { withState { $0.node == nil } }

    var failures: Int {
        get { withState { $0.failures } }
        set { withState { $0.failures = newValue } }
    }

    func receive(_ changes: ChangeSet<Writer.Entity.ID>, from store: EntityStore<Writer.Entity>) {
        let operations = self.operations
        let hasPending = withState { state in
            operations.add(&state.pending, changes, store)
            return !state.pending.isEmpty
        }
        if hasPending {
            coordinator?.changesArrived(options)
        }
    }

    func take() -> TakenBatch? {
        let taken: PendingChanges<Writer.Entity>? = withState { state in
            guard !state.pending.isEmpty else { return nil }
            defer { state.pending = PendingChanges(followingOrderOf: state.pending) }
            return state.pending
        }
        guard let taken else { return nil }
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
                self.withState { state in state.pending = merge(older, state.pending) }
            }
        )
    }

    /// On the queue: runs `body` with the slot's state, in place (one check of the queue, no copy).
    /// `body` must not call out of the slot.
    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        body(&state.value)
    }
}
