import Dispatch

/// The root of a store tree: owns the serial queue, the inbox and the root state.
///
/// Every dispatch in the tree lands in the inbox, a FIFO shared by all producers. One drain on the queue
/// empties it: actions that arrive while a drain is pending or running join that drain instead of paying
/// for a queue hop each.
final class RootNode<State: Sendable, Action: Sendable>: ListeningNode {
    typealias Local = State

    let queue: DispatchQueue
    let scheduler: any DelayScheduler
    let mayReceiveAsyncActions: Bool
    let storage: NodeStorage<State, State>
    private let reducer: Reducer<State, Action>
    private let inbox = Inbox<Action>()

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
        self.storage = NodeStorage(local: initialState, queue: queue)
        self.reducer = reducer
    }

    var state: State {
        storage.local
    }

    func dispatch(_ action: Action) {
        if inbox.push(action) {
            scheduleDrain()
        }
    }

    func forward(_ action: Action, to receiver: any ErasedActionReceiver) {
        if inbox.push(action, for: receiver) {
            scheduleDrain()
        }
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        if inbox.push(work: work) {
            scheduleDrain()
        }
        return true
    }

    func reduce(_ action: Action) {
        reducer(&storage.local, action)
        if storage.hasListeners {
            storage.publish(storage.local)
        }
    }

    func attachToParent() {}

    private func scheduleDrain() {
        queue.async { self.drain() }
    }

    /// How many batches one drain runs before it lets other work on the queue run.
    static var batchesPerTurn: Int { 64 }

    /// On the queue: runs everything in the inbox, including what arrives meanwhile, in arrival order.
    ///
    /// Under a sustained stream the inbox never empties, so after ``batchesPerTurn`` batches the drain
    /// hands the queue back and schedules its continuation: timers scheduled on the tree's queue
    /// (debounce, `maxWait`, effect delays) run in between instead of starving.
    private func drain() {
        assertOnQueue(queue)
        var batch = inbox.takeSpare()
        var batches = 0
        while inbox.take(&batch) {
            inbox.run(&batch) { receive($0) }
            batches += 1
            if batches == Self.batchesPerTurn {
                inbox.yield(&batch)
                scheduleDrain()
                return
            }
        }
    }
}
