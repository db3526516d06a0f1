import Dispatch

/// The root of a store tree: owns the serial queue, the inbox and the root state.
///
/// Every dispatch in the tree lands in the inbox, a FIFO shared by all producers. One drain on the queue
/// empties it: actions that arrive while a drain is pending or running join that drain instead of paying
/// for a queue hop each.
final class RootNode<State: Sendable, Action: Sendable>: ListeningNode {
    typealias Local = State

    private enum Entry: Sendable {
        case action(Action)
        case work(@Sendable () -> Void)
    }

    private struct Inbox: Sendable {
        var pending: [Entry] = []
        /// An empty buffer with capacity, handed back and forth so a steady stream allocates nothing.
        var spare: [Entry] = []
        /// Whether a drain is scheduled or running; producers schedule one only when it is `false`.
        var isDraining = false
    }

    let queue: DispatchQueue
    let scheduler: any DelayScheduler
    let mayReceiveAsyncActions: Bool
    let storage: QueueConfined<NodeStorage<State, State>>
    private let reducer: Reducer<State, Action>
    private let inbox = LockedValue(Inbox())

    init(
        initialState: State,
        qos: DispatchQoS,
        scheduler: any DelayScheduler,
        reducer: @escaping Reducer<State, Action>
    ) {
        let queue = DispatchQueue(label: "canopy.store", qos: qos)
        self.queue = queue
        self.scheduler = scheduler
        self.mayReceiveAsyncActions = ActionKind.mayBeAsyncAction(Action.self)
        self.storage = QueueConfined(NodeStorage(local: initialState), queue: queue)
        self.reducer = reducer
    }

    var state: State {
        storage.value.local
    }

    func dispatch(_ action: Action) {
        push(.action(action))
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        push(.work(work))
        return true
    }

    func reduce(_ action: Action) {
        reducer(&storage.value.local, action)
        if hasListeners {
            publish(storage.value.local)
        }
    }

    func attachToParent() {}

    private func push(_ entry: Entry) {
        let needsDrain = inbox.withLock { inbox in
            inbox.pending.append(entry)
            guard !inbox.isDraining else { return false }
            inbox.isDraining = true
            return true
        }
        if needsDrain {
            queue.async { self.drain() }
        }
    }

    /// On the queue: runs everything in the inbox, including what arrives meanwhile, in arrival order.
    private func drain() {
        assertOnQueue(queue)
        var batch = inbox.withLock { inbox in
            defer { inbox.spare = [] }
            return inbox.spare
        }
        while takePending(into: &batch) {
            for entry in batch {
                switch entry {
                case .action(let action):
                    receive(action)
                case .work(let work):
                    work()
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Swaps the pending entries into `batch`, or, when there are none, ends the drain and keeps `batch`
    /// as the spare buffer.
    private func takePending(into batch: inout [Entry]) -> Bool {
        inbox.withLock { inbox in
            if inbox.pending.isEmpty {
                inbox.isDraining = false
                swap(&inbox.spare, &batch)
                return false
            }
            swap(&inbox.pending, &batch)
            return true
        }
    }
}
