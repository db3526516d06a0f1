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
    private let lock = InboxLock()
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
            if state.pending.isFull || state.pending.targetsAreFull {
                growPending()
            }
            state.pending.appendWithinCapacity(action)
            state.pending.appendTargetWithinCapacity(
                (position: state.pending.count - 1, receiver: receiver, extras: extras)
            )
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

    /// Under the lock: makes room for one more action and one more target in the pending buffer, on the
    /// buffer moved out of `state`.
    @inline(never)
    private func growPending() {
        var pending = InboxBuffer()
        swap(&pending, &state.pending)
        if pending.isFull {
            pending.grow(Action.self)
        }
        if pending.targetsAreFull {
            pending.growTargets()
        }
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
            state.spare.actions == nil && state.spare.targets == nil && batch.count == 0 && batch.targetCount == 0,
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
    /// same for plain actions.
    func run(_ batch: inout InboxBuffer, afterEach: () -> Void, receive: (Action) -> Void) {
        var nextWork = 0
        var nextTarget = 0
        for index in 0..<batch.count {
            while nextWork < batch.works.count, batch.works[nextWork].position == index {
                batch.runWork(at: nextWork)
                afterEach()
                nextWork += 1
            }
            if nextTarget < batch.targetCount, batch.targetPosition(at: nextTarget) == index {
                batch.deliver(target: nextTarget, Action.self)
                afterEach()
                nextTarget += 1
            } else {
                receive(batch.moveAction(at: index, Action.self))
            }
        }
        while nextWork < batch.works.count {
            batch.runWork(at: nextWork)
            afterEach()
            nextWork += 1
        }
        batch.count = 0
        batch.works.removeAll(keepingCapacity: true)
        // Every target was moved out by `deliver`.
        assert(nextTarget == batch.targetCount, "Internal inconsistency: an inbox target was not delivered")
        batch.targetCount = 0
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
    /// On the queue: moves the action out of `action` and handles it as if dispatched to this node.
    ///
    /// - Parameters:
    ///   - action: Points at an initialised value of the receiver's `Action`, which is left
    ///     uninitialised.
    ///   - entry: Where in the pipeline the action enters, and what caused it.
    /// - Returns: What became of the action.
    // Safety: the pointer is a slot of the drain's batch, valid for the call; the receiver, whose `Action`
    // is the type the entry was pushed with, moves the value out, and the batch then counts the slot empty.
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

/// A batch of inbox entries: actions in raw memory, and the work items that run between them.
// Safety: Sendable by hand: a buffer moves between threads whole, with one owner at a time (note below).
struct InboxBuffer: @unchecked Sendable {
    // Safety: a buffer has one owner at a time: the inbox's lock while it collects pending entries or
    // waits as the spare, then the drain on the tree's queue that took it, until it hands it back
    // emptied. `actions` is memory for `capacity` values of the inbox's `Action` type, the first `count`
    // of them initialised; only `Inbox<Action>` touches it, always with that type. An action for a
    // receiver (`Target`) is moved out by the receiver from the address `deliver(target:_:)` hands it, or
    // deinitialised when its run is over; `run` then treats the slot as empty like every other one it
    // moved from. `targets` is memory for `targetCapacity` targets, the first `targetCount` of them
    // initialised until `run` delivers them: `deliver` moves each out, and `run` then sets the count to
    // zero.
    // Both blocks come from `InboxMemory` and go back to it.
    struct Work {
        /// The number of actions pushed before this work item.
        let position: Int
        /// Taken (set to `nil`) when it runs, so what it captured goes at once.
        var run: (@Sendable () -> Void)?
    }

    /// An action pushed for a node other than the root, or through a weak handle, or by an effect run.
    ///
    /// 32 bytes: what only some entries carry is in ``TargetExtras``, so a plain dispatch to a child
    /// stores, retains and releases no more than its receiver, and a burst of them moves less memory
    /// as the buffer grows. Kept in raw memory, moved in and moved out: an array's append checked its
    /// uniqueness and capacity, delivering wrote `nil` back into the fields it took, and emptying it
    /// destroyed each entry again, two releases of nothing (about 50 instructions per child action).
    /// A tuple, so that delivering moves it out into its three parts without copying any of them (a
    /// struct's fields read from a moved-out struct were copied, and the receiver retained once more).
    ///
    /// - `position`: the action's index in the buffer.
    /// - `receiver`: released when the action is handled, so the node can go at once.
    /// - `extras`: the run, entry context and completion of the action, unless they are the defaults.
    typealias Target = (position: Int, receiver: any InboxReceiver, extras: TargetExtras?)

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

    // Safety: `actions` and `targets` are the two blocks described at the top of the struct: owned by
    // the buffer's one owner, allocated and freed through `InboxMemory`, initialised up to the counts.
    var actions: UnsafeMutableRawPointer?
    var capacity = 0
    var count = 0
    var works: [Work] = []
    var targets: UnsafeMutablePointer<Target>?
    var targetCapacity = 0
    var targetCount = 0

    var isEmpty: Bool { count == 0 && works.isEmpty }

    /// Whether the targets' block has no room for one more.
    var targetsAreFull: Bool { targetCount == targetCapacity }

    /// Adds `target` after the others; the block has room for it (``targetsAreFull`` is `false`).
    @inline(__always)
    mutating func appendTargetWithinCapacity(_ target: consuming Target) {
        precondition(targetCount < targetCapacity, "Internal inconsistency: an inbox buffer was full")
        // Safety: `targetCount < targetCapacity`, so `targets` is allocated there.
        (targets! + targetCount).initialize(to: target)
        targetCount += 1
    }

    /// The position of the target at `index`, which is below ``targetCount``.
    func targetPosition(at index: Int) -> Int {
        // Safety: `index < targetCount`, so the target is initialised.
        targets![index].position
    }

    /// Deinitialises the targets not yet delivered and frees their memory.
    mutating func releaseTargets() {
        guard let targets else { return }
        // Safety: the first `targetCount` targets are initialised.
        targets.deinitialize(count: targetCount)
        InboxMemory.deallocate(targets)
        self.targets = nil
        targetCapacity = 0
        targetCount = 0
    }

    mutating func growTargets() {
        let newCapacity = Swift.max(16, targetCapacity * 2)
        targets = InboxMemory.grown(targets, count: targetCount, toCapacity: newCapacity)
        targetCapacity = newCapacity
    }

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
        assert(count == 0 && targetCount == 0, "Internal inconsistency: a buffer with entries was trimmed")
        if capacity > InboxBuffer.retainedCapacity {
            // Safety: the buffer holds no entries (asserted above: every caller empties it first, `run`
            // by moving each entry out), so its memory holds nothing to deinitialise.
            InboxMemory.deallocate(actions)
            actions = nil
            capacity = 0
        }
        if works.capacity > InboxBuffer.retainedCapacity {
            works = []
        }
        if targetCapacity > InboxBuffer.retainedCapacity {
            releaseTargets()
        }
    }

    func moveAction<Action>(at index: Int, _: Action.Type) -> Action {
        slot(index, Action.self).move()
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
        // Moved out into its parts: nothing is retained, and the receiver goes when this call ends.
        // Safety: `index` is below `targetCount` (the caller iterates them), and each target is
        // delivered once; `run` then counts them all as moved out.
        let (position, receiver, extras) = (targets! + index).move()
        let action = slot(position, Action.self)
        guard let extras else {
            // A plain dispatch: no run to check, the default entry context, no completion.
            _ = receiver.receiveAction(at: UnsafeMutableRawPointer(action), entry: EntryContext())
            return
        }
        let outcome: ProcessOutcome
        // Safety: `action` is the initialised slot at `position`; the receiver moves it out, or it is
        // deinitialised here, so either way `run` may count it empty.
        if extras.run?.isCurrent ?? true {
            outcome = receiver.receiveAction(at: UnsafeMutableRawPointer(action), entry: extras.entry)
        } else {
            action.deinitialize(count: 1)
            outcome = .blocked
        }
        extras.completion?(outcome)
    }

    /// Deinitialises the actions and targets left and frees their memory.
    mutating func release<Action>(_: Action.Type) {
        releaseTargets()
        guard let actions else { return }
        // Safety: `actions` holds `count` initialised values of `Action`, the inbox's action type.
        actions.assumingMemoryBound(to: Action.self).deinitialize(count: count)
        InboxMemory.deallocate(actions)
        self.actions = nil
        capacity = 0
        count = 0
    }

    // Safety: typed with the inbox's `Action`, the only type `Inbox<Action>` writes to `actions`.
    private func slot<Action>(_ index: Int, _: Action.Type) -> UnsafeMutablePointer<Action> {
        // Safety: called only with `index < capacity`, so `actions` is allocated.
        actions!.assumingMemoryBound(to: Action.self) + index
    }

    mutating func grow<Action>(_: Action.Type) {
        let newCapacity = Swift.max(16, capacity * 2)
        // Safety: `actions` holds `count` initialised values of `Action`, the inbox's action type.
        let old = actions?.assumingMemoryBound(to: Action.self)
        actions = UnsafeMutableRawPointer(InboxMemory.grown(old, count: count, toCapacity: newCapacity))
        capacity = newCapacity
    }
}
