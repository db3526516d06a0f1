/// The FIFO of one store tree: actions and work items from any thread, in arrival order, taken in batches
/// by the drain on the tree's queue.
///
/// Canopy's generic code runs unspecialised (the client's `State` and `Action` are unknown when the
/// library is compiled), and there every use of a generic struct such as `[Entry<Action>]` asks the
/// runtime for its metadata: a hashed cache lookup of several hundred instructions. So the inbox keeps
/// actions in storage reached through an object of its own (``ActionStorage``), whose metadata comes
/// with it, and everything else in types whose layout the library knows: a push costs a lock, a bounds
/// check and one copy of the action.
// Safety: Sendable by hand: its one `var`, `state`, is read and written only while `lock` is held, which
// serialises every access across threads and orders each holder's writes before the next holder's reads.
final class Inbox<Action: Sendable>: TreeInbox, @unchecked Sendable {
    private let lock = ShortLock()
    /// Read and written only under `lock`. Every access to it is a plain move (a buffer's
    /// `exchange(with:)`, a `swap` of an array) or a short read or write that calls nothing: what may
    /// call out (growing a buffer, freeing one, copying an action into its storage) runs on a buffer or
    /// a storage moved or read out of it first. So the compiler proves the accesses exclusive on its own, and no
    /// runtime check is needed or switched off.
    private var state = InboxState<Action>()

    init() {}

    /// Appends `action` for the root, from any thread.
    ///
    /// - Returns: `true` when no drain was scheduled or running, so the caller must schedule one.
    func push(_ action: Action) -> Bool {
        lock.withLock {
            appendPending(action)
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
                extras: InboxTargetExtras(run: run, entry: entry, completion: completion)
            )
        }
        return push(action, for: receiver, extras: nil)
    }

    /// `push(_:for:guardedBy:entry:completion:)` with its extras made. Inlined, so that a literal `nil`
    /// stays one.
    @inline(__always)
    private func push(_ action: Action, for receiver: any InboxReceiver, extras: InboxTargetExtras?) -> Bool {
        lock.withLock {
            // The targets are moved out and back, so that the append, which may grow the array, runs
            // outside any access to `state`.
            var targets: [InboxTarget] = []
            swap(&targets, &state.pending.targets)
            targets.append(InboxTarget(position: state.pending.count, receiver: receiver, extras: extras))
            swap(&targets, &state.pending.targets)
            appendPending(action)
            return state.claimDrain()
        }
    }

    /// Under the lock: appends `action` to the pending buffer, growing its storage first if it is full.
    ///
    /// The storage is read out of `state` before the append: the copy of the action is a call the
    /// compiler cannot see into, and an access to `state` spanning it would be checked at run time.
    @inline(__always)
    private func appendPending(_ action: Action) {
        if state.pending.isFull {
            growPending()
        }
        state.pending.storageWithRoom().append(action)
        state.pending.count += 1
    }

    /// Appends `work`, from any thread; it runs on the queue after every entry pushed before it.
    ///
    /// - Returns: `true` when the caller must schedule a drain.
    func push(work: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            var pending = InboxBuffer<Action>()
            pending.exchange(with: &state.pending)
            pending.works.append(InboxWork(position: pending.count, run: work))
            pending.exchange(with: &state.pending)
            return state.claimDrain()
        }
    }

    /// Under the lock: makes room for more actions in the pending buffer, on the buffer moved out of
    /// `state`.
    @inline(never)
    private func growPending() {
        var pending = InboxBuffer<Action>()
        pending.exchange(with: &state.pending)
        pending.grow()
        pending.exchange(with: &state.pending)
    }

    /// On the queue, when a drain starts: the empty buffer to collect the next batch in.
    func takeSpare() -> InboxBuffer<Action> {
        lock.withLock {
            var spare = InboxBuffer<Action>()
            spare.exchange(with: &state.spare)
            return spare
        }
    }

    /// On the queue: swaps the pending entries into `batch`, which must be empty; or, when nothing is
    /// pending, ends the drain and keeps `batch` as the spare buffer.
    ///
    /// - Returns: Whether `batch` now holds entries to run.
    func take(_ batch: inout InboxBuffer<Action>) -> Bool {
        // Trimmed before the lock, as it may free memory: `batch` is empty, and becomes either the
        // pending buffer or the spare.
        batch.trimForSpare()
        return lock.withLock {
            if state.pending.isEmpty {
                state.isDraining = false
                keepAsSpare(&batch)
                return false
            }
            state.pending.exchange(with: &batch)
            return true
        }
    }

    /// On the queue, when a drain yields the queue with entries possibly still pending: keeps `batch`
    /// (emptied) as the spare buffer. The drain stays claimed; the caller schedules the next one.
    func yield(_ batch: inout InboxBuffer<Action>) {
        batch.trimForSpare()
        lock.withLock { keepAsSpare(&batch) }
    }

    /// Under the lock: keeps the emptied `batch` as the spare buffer, and leaves in `batch` the spare it
    /// replaces, which the drain emptied of memory when it took it (``takeSpare()``).
    @inline(__always)
    private func keepAsSpare(_ batch: inout InboxBuffer<Action>) {
        // The spare it replaces was emptied of memory by `takeSpare()`; `batch` was emptied by `run`.
        assert(
            state.spare.actions == nil && batch.count == 0 && batch.targets.isEmpty,
            "Internal inconsistency: an inbox buffer with memory or entries was dropped"
        )
        state.spare.exchange(with: &batch)
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
    func run(
        _ batch: inout InboxBuffer<Action>,
        in turn: borrowing DrainTurn,
        afterEach: () -> Void,
        receive: (inout Action) -> Void
    ) {
        var nextWork = 0
        var nextTarget = 0
        if batch.count > 0 {
            // Held here for the whole batch: read from `batch` per action, it would be retained around
            // each handling, which calls out.
            guard let actions = batch.actions else {
                preconditionFailure("Internal inconsistency: an inbox buffer with actions had no storage")
            }
            for index in 0..<batch.count {
                while nextWork < batch.works.count, batch.works[nextWork].position == index {
                    batch.runWork(at: nextWork)
                    afterEach()
                    nextWork += 1
                }
                if nextTarget < batch.targets.count, batch.targets[nextTarget].position == index {
                    actions.deliverNext(for: &batch.targets[nextTarget], in: turn)
                    afterEach()
                    nextTarget += 1
                } else {
                    actions.handleNext(receive)
                }
            }
        }
        while nextWork < batch.works.count {
            batch.runWork(at: nextWork)
            afterEach()
            nextWork += 1
        }
        assert(nextTarget == batch.targets.count, "Internal inconsistency: an inbox target was not delivered")
        batch.resetHandled()
    }
}

/// What the tree's engine needs of its inbox without knowing the action type.
protocol TreeInbox: AnyObject, Sendable {
    /// Appends `work`, from any thread; returns whether the caller must schedule a drain.
    func push(work: @escaping @Sendable () -> Void) -> Bool
}

/// What takes actions from the root's inbox, where they wait in its action storage: a store's handle of a
/// node (``NodeHandle``), or an accepted action of a weak route (``AcceptedAction``). Each keeps its node alive
/// while the entry holds it, so every action in the inbox reaches its node.
protocol InboxReceiver: AnyObject, Sendable {
    /// In the drain: handles `action`, the receiver's `Action`, in place, as if dispatched to this node.
    ///
    /// - Parameters:
    ///   - action: The action, in the drain's batch.
    ///   - entry: Where in the pipeline the action enters, and what caused it.
    ///   - turn: The drain's proof that it runs on the queue, for the receiver to reach its node.
    /// - Returns: What became of the action.
    func handle(_ action: consuming InboxAction, entry: EntryContext, in turn: borrowing DrainTurn) -> ProcessOutcome

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
struct InboxState<Action> {
    var pending = InboxBuffer<Action>()
    /// An empty buffer with capacity, handed back and forth with `pending` so a steady stream allocates
    /// nothing.
    var spare = InboxBuffer<Action>()
    /// Whether a drain is scheduled or running; producers schedule one only when it is `false`.
    var isDraining = false

    /// Marks a drain as scheduled unless one is; returns whether the caller must schedule it.
    mutating func claimDrain() -> Bool {
        guard !isDraining else { return false }
        isDraining = true
        return true
    }
}

/// A batch of inbox entries: the actions, in storage that owns them (``ActionStorage``), the entries among
/// them that go to a receiver, and the work items that run between them.
///
/// A buffer has one owner at a time: the inbox's lock while it collects pending entries or waits as the
/// spare, then the drain on the tree's queue that took it, until it hands it back emptied. Its layout
/// does not depend on `Action` (a reference and arrays of types the library knows), so the library's
/// unspecialised code moves it and reads its fields without asking the runtime for its metadata. A call
/// of one of its methods that is not inlined would pass that metadata, looked up per call: those that
/// run per batch or per entry are inlined, and the delivery to a receiver is the storage's
/// (``ActionStorage/deliverNext(for:)``).
struct InboxBuffer<Action> {
    /// The capacity a buffer keeps across idle periods.
    static var retainedCapacity: Int { 1_024 }

    /// The actions; `nil` until the first push, and after a burst's memory was trimmed.
    var actions: ActionStorage<Action>?
    /// How many actions `actions` has room for, and how many were pushed into this batch (each work
    /// item and target is placed by it): kept here too, so that the checks under the inbox's lock read
    /// plain fields, with no call into the storage inside an access to the inbox's state.
    var capacity = 0
    var count = 0
    var works: [InboxWork] = []
    var targets: [InboxTarget] = []

    var isEmpty: Bool { count == 0 && works.isEmpty }

    /// Whether the actions' storage has no room for one more.
    var isFull: Bool { count == capacity }

    /// The actions' storage, which has room for one more action (``isFull`` is `false`).
    @inline(__always)
    func storageWithRoom() -> ActionStorage<Action> {
        // The storage checks its room itself, on the append.
        guard let actions else {
            preconditionFailure("Internal inconsistency: an inbox buffer with room had no storage")
        }
        return actions
    }

    /// Frees what a burst made this empty buffer keep beyond ``retainedCapacity`` entries of each kind,
    /// before it waits as the spare: an idle tree holds on to little.
    @inline(__always)
    mutating func trimForSpare() {
        assert(count == 0 && targets.isEmpty, "Internal inconsistency: a buffer with entries was trimmed")
        if capacity > Self.retainedCapacity {
            actions = nil
            capacity = 0
        }
        if works.capacity > Self.retainedCapacity {
            works = []
        }
        if targets.capacity > Self.retainedCapacity {
            targets = []
        }
    }

    /// Runs the work item at `index` and lets go of it.
    @inline(__always)
    mutating func runWork(at index: Int) {
        let work = works[index].run.take()
        work?()
    }

    /// Empties the batch once `run` handled every entry, keeping its memory for the next one.
    @inline(__always)
    mutating func resetHandled() {
        actions?.resetHandled()
        count = 0
        works.removeAll(keepingCapacity: true)
        targets.removeAll(keepingCapacity: true)
    }

    /// Exchanges the contents of this buffer and `other`, field by field. `swap(_:_:)`, called from the
    /// library's unspecialised code, would be a call into the standard library that looks up this
    /// struct's metadata, and a call the compiler cannot see into inside an access to the inbox's state,
    /// which it would then check at run time.
    @inline(__always)
    mutating func exchange(with other: inout InboxBuffer) {
        let actions = self.actions
        self.actions = other.actions
        other.actions = actions
        (capacity, other.capacity) = (other.capacity, capacity)
        (count, other.count) = (other.count, count)
        swap(&works, &other.works)
        swap(&targets, &other.targets)
    }

    /// Makes room for twice as many actions (16 at first), moving the ones pushed so far.
    mutating func grow() {
        capacity = Swift.max(16, capacity * 2)
        actions = ActionStorage<Action>.make(capacity: capacity, movingFrom: actions)
    }
}

/// A work item in an inbox buffer.
struct InboxWork {
    /// The number of actions pushed before this work item.
    let position: Int
    /// Taken (set to `nil`) when it runs, so what it captured goes at once.
    var run: (@Sendable () -> Void)?
}

/// An action pushed for a node other than the root, or through a weak handle, or by an effect run.
///
/// What only some entries carry is in ``InboxTargetExtras``, so a plain dispatch to a child stores,
/// retains and releases no more than its receiver. Delivering takes the receiver and the extras out
/// (`nil` left behind), so they go as soon as the action is handled.
struct InboxTarget {
    /// The action's index in the buffer.
    let position: Int
    /// Taken when the action is handled, so the node can go at once.
    var receiver: (any InboxReceiver)?
    /// The run, entry context and completion of the action, unless they are the defaults; taken with the
    /// receiver.
    var extras: InboxTargetExtras?
}

/// What an entry carries besides its receiver, when it carries anything.
final class InboxTargetExtras: Sendable {
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
