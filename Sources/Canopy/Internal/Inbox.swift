/// The FIFO of one store tree: actions and work items from any thread, in arrival order, taken in batches
/// by the drain on the tree's queue.
///
/// Canopy's generic code runs unspecialised (the client's `State` and `Action` are unknown when the
/// library is compiled), and there every use of a generic struct such as `[Entry<Action>]` asks the
/// runtime for its metadata: a hashed cache lookup of several hundred instructions. So the inbox keeps
/// actions in raw memory typed only by `Action`, whose metadata comes with `self`, and everything else in
/// non-generic types: a push costs a lock, a bounds check and one copy of the action.
final class Inbox<Action: Sendable>: Sendable {
    private let state = LockedValue(InboxState())

    init() {}

    deinit {
        state.withLock { state in
            state.pending.release(Action.self)
            state.spare.release(Action.self)
        }
    }

    /// Appends `action`, from any thread.
    ///
    /// - Returns: `true` when no drain was scheduled or running, so the caller must schedule one.
    func push(_ action: Action) -> Bool {
        state.withLock { state in
            state.pending.append(action)
            return state.claimDrain()
        }
    }

    /// Appends `action` for `receiver`, from any thread: at its turn the drain hands the action's address
    /// to `receiver` instead of reducing it at the root.
    ///
    /// - Returns: `true` when the caller must schedule a drain.
    func push(_ action: Action, for receiver: any ErasedActionReceiver) -> Bool {
        state.withLock { state in
            state.pending.append(action)
            state.pending.forwards.append(InboxBuffer.Forward(position: state.pending.count - 1, receiver: receiver))
            return state.claimDrain()
        }
    }

    /// Appends `work`, from any thread; it runs on the queue after every entry pushed before it.
    ///
    /// - Returns: `true` when the caller must schedule a drain.
    func push(work: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            state.pending.works.append(InboxBuffer.Work(position: state.pending.count, run: work))
            return state.claimDrain()
        }
    }

    /// On the queue, when a drain starts: the empty buffer to collect the next batch in.
    func takeSpare() -> InboxBuffer {
        state.withLock { state in
            defer { state.spare = InboxBuffer() }
            return state.spare
        }
    }

    /// On the queue: swaps the pending entries into `batch`, which must be empty; or, when nothing is
    /// pending, ends the drain and keeps `batch` as the spare buffer.
    ///
    /// - Returns: Whether `batch` now holds entries to run.
    func take(_ batch: inout InboxBuffer) -> Bool {
        state.withLock { state in
            if state.pending.isEmpty {
                state.isDraining = false
                state.keepAsSpare(&batch)
                return false
            }
            swap(&state.pending, &batch)
            return true
        }
    }

    /// On the queue, when a drain yields the queue with entries possibly still pending: keeps `batch`
    /// (emptied) as the spare buffer. The drain stays claimed; the caller schedules the next one.
    func yield(_ batch: inout InboxBuffer) {
        state.withLock { $0.keepAsSpare(&batch) }
    }

    /// On the queue: runs `batch`'s work items and hands its actions to `receive`, in arrival order, and
    /// leaves `batch` empty. Entries pushed meanwhile go to the pending buffer, for the next batch.
    func run(_ batch: inout InboxBuffer, receive: (Action) -> Void) {
        let works = batch.works
        let forwards = batch.forwards
        var nextWork = 0
        var nextForward = 0
        for index in 0..<batch.count {
            while nextWork < works.count, works[nextWork].position == index {
                works[nextWork].run()
                nextWork += 1
            }
            if nextForward < forwards.count, forwards[nextForward].position == index {
                forwards[nextForward].receiver.receiveAction(at: batch.address(of: index, Action.self))
                nextForward += 1
            } else {
                receive(batch.moveAction(at: index, Action.self))
            }
        }
        while nextWork < works.count {
            works[nextWork].run()
            nextWork += 1
        }
        batch.count = 0
        batch.works.removeAll(keepingCapacity: true)
        batch.forwards.removeAll(keepingCapacity: true)
    }
}

/// What the inbox's lock guards.
struct InboxState: Sendable {
    var pending = InboxBuffer()
    /// An empty buffer with capacity, handed back and forth with `pending` so a steady stream allocates
    /// nothing.
    var spare = InboxBuffer()
    /// Whether a drain is scheduled or running; producers schedule one only when it is `false`.
    var isDraining = false

    /// Marks a drain as scheduled unless one is; returns whether the caller must schedule it.
    mutating func claimDrain() -> Bool {
        guard !isDraining else { return false }
        isDraining = true
        return true
    }

    /// Keeps the emptied `buffer` for the next batch, unless a burst left it large: an idle tree holds
    /// on to at most ``InboxBuffer/retainedCapacity`` entries of each kind.
    mutating func keepAsSpare(_ buffer: inout InboxBuffer) {
        if buffer.capacity > InboxBuffer.retainedCapacity {
            buffer.actions?.deallocate()
            buffer.actions = nil
            buffer.capacity = 0
        }
        if buffer.works.capacity > InboxBuffer.retainedCapacity {
            buffer.works = []
        }
        if buffer.forwards.capacity > InboxBuffer.retainedCapacity {
            buffer.forwards = []
        }
        swap(&spare, &buffer)
    }
}

/// A batch of inbox entries: actions in raw memory, and the work items that run between them.
struct InboxBuffer: @unchecked Sendable {
    // Safety: a buffer has one owner at a time: the inbox's lock while it collects pending entries or
    // waits as the spare, then the drain on the tree's queue that took it, until it hands it back
    // emptied. `actions` is memory for `capacity` values of the inbox's `Action` type, the first `count`
    // of them initialised; only `Inbox<Action>` touches it, always with that type. A forwarded action's
    // receiver (`Forward`) moves it out through `address(of:_:)` during `run`, which then treats the slot
    // as empty like every other one it moved from.
    struct Work {
        /// The number of actions pushed before this work item.
        let position: Int
        let run: @Sendable () -> Void
    }

    /// An action pushed for a node other than the root.
    struct Forward {
        /// The action's index in the buffer.
        let position: Int
        let receiver: any ErasedActionReceiver
    }

    /// The capacity a buffer keeps across idle periods.
    static let retainedCapacity = 1_024

    var actions: UnsafeMutableRawPointer?
    var capacity = 0
    var count = 0
    var works: [Work] = []
    var forwards: [Forward] = []

    var isEmpty: Bool { count == 0 && works.isEmpty }

    mutating func append<Action>(_ action: Action) {
        if count == capacity {
            grow(Action.self)
        }
        slot(count, Action.self).initialize(to: action)
        count += 1
    }

    /// Where the action at `index` is, for a receiver to move it out.
    func address<Action>(of index: Int, _: Action.Type) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(slot(index, Action.self))
    }

    func moveAction<Action>(at index: Int, _: Action.Type) -> Action {
        slot(index, Action.self).move()
    }

    /// Deinitialises the actions left and frees the memory.
    mutating func release<Action>(_: Action.Type) {
        guard let actions else { return }
        actions.assumingMemoryBound(to: Action.self).deinitialize(count: count)
        actions.deallocate()
        self.actions = nil
        capacity = 0
        count = 0
    }

    private func slot<Action>(_ index: Int, _: Action.Type) -> UnsafeMutablePointer<Action> {
        actions.unsafelyUnwrapped.assumingMemoryBound(to: Action.self) + index
    }

    private mutating func grow<Action>(_: Action.Type) {
        let newCapacity = Swift.max(16, capacity * 2)
        let newActions = UnsafeMutableRawPointer.allocate(
            byteCount: newCapacity * MemoryLayout<Action>.stride,
            alignment: MemoryLayout<Action>.alignment
        )
        let typed = newActions.bindMemory(to: Action.self, capacity: newCapacity)
        if let actions {
            typed.moveInitialize(from: actions.assumingMemoryBound(to: Action.self), count: count)
            actions.deallocate()
        }
        self.actions = newActions
        capacity = newCapacity
    }
}
