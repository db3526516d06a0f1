/// The FIFO of one store tree: actions and work items from any thread, in arrival order, taken in batches
/// by the drain on the tree's queue.
///
/// Canopy's generic code runs unspecialised (the client's `State` and `Action` are unknown when the
/// library is compiled), and there every use of a generic struct such as `[Entry<Action>]` asks the
/// runtime for its metadata: a hashed cache lookup of several hundred instructions. So the inbox keeps
/// actions in raw memory typed only by `Action`, whose metadata comes with `self`, and everything else in
/// non-generic types: a push costs a lock, a bounds check and one copy of the action.
// Safety: Sendable by hand: its one `var`, `state`, is read and written only while `lock` is held, which
// serialises every access across threads and orders each holder's writes before the next holder's reads.
final class Inbox<Action: Sendable>: TreeInbox, @unchecked Sendable {
    private let lock = ShortLock()
    /// Read and written only under `lock`. Every access to it is a plain move (a `swap`) or a short
    /// read or write that calls nothing: what may call out (growing a buffer, freeing one) runs on a
    /// buffer moved out of it first. So the compiler proves the accesses exclusive on its own, and no
    /// runtime check is needed or switched off.
    private var state = InboxState()

    init() {}

    deinit {
        var pending = InboxBuffer()
        var spare = InboxBuffer()
        swap(&pending, &state.pending)
        swap(&spare, &state.spare)
        pending.release(Action.self)
        spare.release(Action.self)
    }

    /// Appends `action` for the root, from any thread.
    ///
    /// - Returns: `true` when no drain was scheduled or running, so the caller must schedule one.
    func push(_ action: Action) -> Bool {
        lock.withLock {
            if state.pending.isFull {
                growPending()
            }
            state.pending.appendWithinCapacity(action)
            return state.claimDrain()
        }
    }

    /// Appends `action` for `receiver`, from any thread: at its turn the drain hands the action's address
    /// to `receiver`, unless `run` is given and no longer current, in which case the action is dropped.
    ///
    /// The entry holds `receiver` strongly until the action has been handled, then lets go of it.
    ///
    /// - Returns: `true` when the caller must schedule a drain.
    func push(
        _ action: Action,
        for receiver: any InboxReceiver,
        guardedBy run: EffectRun? = nil,
        entry: EntryContext = EntryContext(),
        completion: (@Sendable (ProcessOutcome) -> Void)? = nil
    ) -> Bool {
        // Most entries, plain dispatches, carry no extras: for them the target is stored with a literal
        // `nil`, which costs no retain. The extras of the others are made before the lock is taken.
        guard run == nil && completion == nil && entry.isPlain else {
            return push(
                action,
                for: receiver,
                extras: InboxBuffer.TargetExtras(run: run, entry: entry, completion: completion)
            )
        }
        return push(action, for: receiver, extras: nil)
    }

    /// `push(_:for:guardedBy:entry:completion:)` with its extras made. Inlined, so that a literal `nil`
    /// stays one.
    @inline(__always)
    private func push(_ action: Action, for receiver: any InboxReceiver, extras: InboxBuffer.TargetExtras?) -> Bool {
        lock.withLock {
            if state.pending.isFull {
                growPending()
            }
            // The targets are moved out and back, so that the append, which may grow the array, runs
            // outside any access to `state`.
            var targets: [InboxBuffer.Target] = []
            swap(&targets, &state.pending.targets)
            targets.append(InboxBuffer.Target(position: state.pending.count, receiver: receiver, extras: extras))
            swap(&targets, &state.pending.targets)
            state.pending.appendWithinCapacity(action)
            return state.claimDrain()
        }
    }

    /// Appends `work`, from any thread; it runs on the queue after every entry pushed before it.
    ///
    /// - Returns: `true` when the caller must schedule a drain.
    func push(work: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            var pending = InboxBuffer()
            swap(&pending, &state.pending)
            pending.works.append(InboxBuffer.Work(position: pending.count, run: work))
            swap(&pending, &state.pending)
            return state.claimDrain()
        }
    }

    /// Under the lock: makes room for one more action in the pending buffer, on the buffer moved out of
    /// `state`.
    @inline(never)
    private func growPending() {
        var pending = InboxBuffer()
        swap(&pending, &state.pending)
        pending.grow(Action.self)
        swap(&pending, &state.pending)
    }

    /// On the queue, when a drain starts: the empty buffer to collect the next batch in.
    func takeSpare() -> InboxBuffer {
        lock.withLock {
            var spare = InboxBuffer()
            swap(&spare, &state.spare)
            return spare
        }
    }

    /// On the queue: swaps the pending entries into `batch`, which must be empty; or, when nothing is
    /// pending, ends the drain and keeps `batch` as the spare buffer.
    ///
    /// - Returns: Whether `batch` now holds entries to run.
    func take(_ batch: inout InboxBuffer) -> Bool {
        // Trimmed before the lock, as it may free memory: `batch` is empty, and becomes either the
        // pending buffer or the spare.
        batch.trimForSpare()
        return lock.withLock {
            if state.pending.isEmpty {
                state.isDraining = false
                keepAsSpare(&batch)
                return false
            }
            swap(&state.pending, &batch)
            return true
        }
    }

    /// On the queue, when a drain yields the queue with entries possibly still pending: keeps `batch`
    /// (emptied) as the spare buffer. The drain stays claimed; the caller schedules the next one.
    func yield(_ batch: inout InboxBuffer) {
        batch.trimForSpare()
        lock.withLock { keepAsSpare(&batch) }
    }

    /// Under the lock: keeps the emptied `batch` as the spare buffer, and leaves in `batch` the spare it
    /// replaces, which the drain emptied of memory when it took it (``takeSpare()``).
    @inline(__always)
    private func keepAsSpare(_ batch: inout InboxBuffer) {
        // The buffers own raw memory, so one that is dropped must own none.
        assert(
            state.spare.actions == nil && batch.count == 0 && batch.targets.isEmpty,
            "Internal inconsistency: an inbox buffer with memory or entries was dropped"
        )
        swap(&state.spare, &batch)
    }

    /// On the queue: runs `batch`'s entries in arrival order and leaves `batch` empty: work items run,
    /// actions for a receiver go to it (or are dropped if their run is over), and plain actions go to
    /// `receive`. Each entry lets go of what it holds (work, receiver) as soon as it is handled, so a
    /// node whose last handle is gone is freed right after its last action, not at the end of the batch.
    /// Entries pushed meanwhile go to the pending buffer, for the next batch.
    ///
    /// `afterEach` runs after each work item and each action for a receiver; `receive` is left to do the
    /// same for plain actions. `receive` gets each plain action in its slot, to change in place if it
    /// needs to; the action is destroyed when it returns.
    func run(_ batch: inout InboxBuffer, afterEach: () -> Void, receive: (inout Action) -> Void) {
        var nextWork = 0
        var nextTarget = 0
        for index in 0..<batch.count {
            while nextWork < batch.works.count, batch.works[nextWork].position == index {
                batch.runWork(at: nextWork)
                afterEach()
                nextWork += 1
            }
            if nextTarget < batch.targets.count, batch.targets[nextTarget].position == index {
                batch.deliver(target: nextTarget, Action.self)
                afterEach()
                nextTarget += 1
            } else {
                batch.handleAction(at: index, Action.self, receive)
            }
        }
        while nextWork < batch.works.count {
            batch.runWork(at: nextWork)
            afterEach()
            nextWork += 1
        }
        batch.count = 0
        batch.works.removeAll(keepingCapacity: true)
        assert(nextTarget == batch.targets.count, "Internal inconsistency: an inbox target was not delivered")
        batch.targets.removeAll(keepingCapacity: true)
    }
}

/// What the tree's engine needs of its inbox without knowing the action type.
protocol TreeInbox: AnyObject, Sendable {
    /// Appends `work`, from any thread; returns whether the caller must schedule a drain.
    func push(work: @escaping @Sendable () -> Void) -> Bool
}

/// What takes actions from the root's inbox, where they wait in raw memory: a node, a store's handle of
/// one, or an accepted action of a weak route (``AcceptedAction``). Each keeps its node alive while the
/// entry holds it, so every action in the inbox reaches its node.
protocol InboxReceiver: AnyObject, Sendable {
    /// On the queue: handles the action at `action`, in place, as if dispatched to this node, and leaves
    /// the slot uninitialised.
    ///
    /// - Parameters:
    ///   - action: Points at an initialised value of the receiver's `Action`, which is left
    ///     uninitialised.
    ///   - entry: Where in the pipeline the action enters, and what caused it.
    /// - Returns: What became of the action.
    // Safety: the pointer is a slot of the drain's batch, valid for the call; the receiver, whose `Action`
    // is the type the entry was pushed with, destroys the value once handled, and the batch then counts
    // the slot empty.
    func receiveAction(at action: UnsafeMutableRawPointer, entry: EntryContext) -> ProcessOutcome

}

/// What an inbox entry carries besides its action: where the action enters the receiver's middleware,
/// and the actions that caused it (for cycle detection).
struct EntryContext: Sendable {
    /// For an action resumed by a middleware (a debounce letting it go): the first middleware to run in
    /// the chain of the node at depth ``resumeDepth``; the chains above that node already ran.
    var middlewareStart = 0
    /// The depth of the node whose chain resumes the action, or -1 for an action that starts afresh.
    var resumeDepth = -1
    /// The kinds of the actions whose handling sent this one, first cause first; `nil` when cycle
    /// detection is off or the action came from outside the tree's handling of another.
    var causes: [String]?

    /// With cycle detection on: this context, with the causes of an action sent now when it names none.
    /// An effect's result is caused by what started the effect (`run`); anything else sent while an
    /// action is handled, by that action (SPEC 9).
    func followingCauses(of run: EffectRun?, in tree: StoreTree) -> EntryContext {
        guard causes == nil else { return self }
        var context = self
        context.causes = run?.causes ?? tree.causesOfDispatchNow
        return context
    }

    /// Whether this is the context of an action that starts afresh with no known causes, the default.
    var isPlain: Bool {
        middlewareStart == 0 && resumeDepth == -1 && causes == nil
    }
}

/// What became of one action.
enum ProcessOutcome: Sendable {
    /// The reducers ran and the new state was published.
    case reduced
    /// A middleware did not pass the action on, or it came from an effect run that is no longer current.
    case blocked
    /// A middleware threw.
    case failed(any Error)
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
}

/// A batch of inbox entries: actions in raw memory, the entries among them that go to a receiver, and the
/// work items that run between them.
///
/// Only the actions are raw memory: their type is the inbox's `Action`, and an array of it would look up
/// its metadata in the runtime's caches on every push from the library's unspecialised code
/// (Docs/Performance.md, "Where the engine stands"). The targets and the work items are arrays of types
/// the library knows, checked like any array.
// Safety: Sendable by hand: a buffer moves between threads whole, with one owner at a time (note below).
struct InboxBuffer: @unchecked Sendable {
    // Safety: a buffer has one owner at a time: the inbox's lock while it collects pending entries or
    // waits as the spare, then the drain on the tree's queue that took it, until it hands it back
    // emptied. `actions` is memory for `capacity` values of the inbox's `Action` type, the first `count`
    // of them initialised; only `Inbox<Action>` touches it, always with that type. An action for a
    // receiver (`Target`) is handled in place and destroyed by the receiver at the address
    // `deliver(target:_:)` hands it, or deinitialised when its run is over; a plain action is handled in
    // place and destroyed by `handleAction`; `run` then treats the slot as empty. The block comes from
    // Swift's allocator (`grow`) and goes back to it.
    struct Work {
        /// The number of actions pushed before this work item.
        let position: Int
        /// Taken (set to `nil`) when it runs, so what it captured goes at once.
        var run: (@Sendable () -> Void)?
    }

    /// An action pushed for a node other than the root, or through a weak handle, or by an effect run.
    ///
    /// What only some entries carry is in ``TargetExtras``, so a plain dispatch to a child stores,
    /// retains and releases no more than its receiver. Delivering takes the receiver and the extras out
    /// (`nil` left behind), so they go as soon as the action is handled.
    struct Target {
        /// The action's index in the buffer.
        let position: Int
        /// Taken when the action is handled, so the node can go at once.
        var receiver: (any InboxReceiver)?
        /// The run, entry context and completion of the action, unless they are the defaults; taken with
        /// the receiver.
        var extras: TargetExtras?
    }

    /// What an entry carries besides its receiver, when it carries anything.
    final class TargetExtras: Sendable {
        /// The effect run that sent the action: it is dropped unless the run is still current.
        let run: EffectRun?
        let entry: EntryContext
        /// Called on the queue with what became of the action.
        let completion: (@Sendable (ProcessOutcome) -> Void)?

        init(run: EffectRun?, entry: EntryContext, completion: (@Sendable (ProcessOutcome) -> Void)?) {
            self.run = run
            self.entry = entry
            self.completion = completion
        }
    }

    /// The capacity a buffer keeps across idle periods.
    static let retainedCapacity = 1_024

    // Safety: `actions` is the block described at the top of the struct: owned by the buffer's one owner,
    // allocated by `grow` and freed by its owner, initialised up to `count`.
    var actions: UnsafeMutableRawPointer?
    var capacity = 0
    var count = 0
    var works: [Work] = []
    var targets: [Target] = []

    var isEmpty: Bool { count == 0 && works.isEmpty }

    /// Whether the actions' block has no room for one more.
    var isFull: Bool { count == capacity }

    /// Appends `action`; the block has room for it (``isFull`` is `false`). Grows nothing, so it calls
    /// nothing but the copy of the action.
    @inline(__always)
    mutating func appendWithinCapacity<Action>(_ action: Action) {
        precondition(count < capacity, "Internal inconsistency: an inbox buffer was full")
        slot(count, Action.self).initialize(to: action)
        count += 1
    }

    /// Frees what a burst made this empty buffer keep beyond ``retainedCapacity`` entries of each kind,
    /// before it waits as the spare: an idle tree holds on to little.
    mutating func trimForSpare() {
        assert(count == 0 && targets.isEmpty, "Internal inconsistency: a buffer with entries was trimmed")
        if capacity > InboxBuffer.retainedCapacity {
            // Safety: the buffer holds no entries (asserted above: every caller empties it first, `run`
            // by handling each entry), so its memory holds nothing to deinitialise.
            actions?.deallocate()
            actions = nil
            capacity = 0
        }
        if works.capacity > InboxBuffer.retainedCapacity {
            works = []
        }
        if targets.capacity > InboxBuffer.retainedCapacity {
            targets = []
        }
    }

    /// Lends the action at `index` to `body`, which may change it in place, then destroys it.
    @inline(__always)
    func handleAction<Action>(at index: Int, _: Action.Type, _ body: (inout Action) -> Void) {
        let action = slot(index, Action.self)
        body(&action.pointee)
        // Moved out to be destroyed: in unspecialised code, `deinitialize(count:)` is a call into the
        // standard library that destroys an array, about 20 instructions more.
        _ = action.move()
    }

    /// Runs the work item at `index` and lets go of it.
    mutating func runWork(at index: Int) {
        let work = works[index].run.take()
        work?()
    }

    /// Hands the action of the target at `index` to its receiver, or drops it if its run is over; then
    /// lets go of the receiver and of what the entry carried.
    ///
    /// Not inlined: in the drain's loop, its code made every plain action to the root pay more.
    @inline(never)
    mutating func deliver<Action>(target index: Int, _: Action.Type) {
        // Taken out of the entry: the receiver and the extras go when this call ends.
        let position = targets[index].position
        let extras = targets[index].extras.take()
        guard let receiver = targets[index].receiver.take() else {
            preconditionFailure("Internal inconsistency: an inbox target was delivered twice")
        }
        // Safety: the initialised slot at `position`, valid for this call; the receiver handles the action
        // in place and destroys it, or it is deinitialised here, so either way `run` may count it empty.
        let action = UnsafeMutableRawPointer(slot(position, Action.self))
        guard let extras else {
            // A plain dispatch: no run to check, the default entry context, no completion.
            _ = receiver.receiveAction(at: action, entry: EntryContext())
            return
        }
        let outcome: ProcessOutcome
        if extras.run?.isCurrent ?? true {
            outcome = receiver.receiveAction(at: action, entry: extras.entry)
        } else {
            // Safety: as above, an initialised `Action`.
            action.assumingMemoryBound(to: Action.self).deinitialize(count: 1)
            outcome = .blocked
        }
        extras.completion?(outcome)
    }

    /// Deinitialises the actions and targets left and frees their memory.
    mutating func release<Action>(_: Action.Type) {
        targets = []
        guard let actions else { return }
        // Safety: `actions` holds `count` initialised values of `Action`, the inbox's action type.
        actions.assumingMemoryBound(to: Action.self).deinitialize(count: count)
        actions.deallocate()
        self.actions = nil
        capacity = 0
        count = 0
    }

    // Safety: typed with the inbox's `Action`, the only type `Inbox<Action>` writes to `actions`.
    private func slot<Action>(_ index: Int, _: Action.Type) -> UnsafeMutablePointer<Action> {
        // Safety: called only with `index < capacity`, so `actions` is allocated.
        actions!.assumingMemoryBound(to: Action.self) + index
    }

    /// Moves the actions into a block twice as large (16 at first) and frees the old one.
    mutating func grow<Action>(_: Action.Type) {
        let newCapacity = Swift.max(16, capacity * 2)
        // Safety: a new block for `newCapacity` actions, owned by this buffer from here on.
        let grown = UnsafeMutablePointer<Action>.allocate(capacity: newCapacity)
        if let actions {
            // Safety: `actions` holds `count` initialised values of `Action`, the inbox's action type;
            // they move to the new block, and the old one, now holding nothing, is freed.
            grown.moveInitialize(from: actions.assumingMemoryBound(to: Action.self), count: count)
            actions.deallocate()
        }
        actions = UnsafeMutableRawPointer(grown)
        capacity = newCapacity
    }
}
