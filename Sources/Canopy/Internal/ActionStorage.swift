/// The actions of one inbox buffer (``InboxBuffer``), in arrival order, in memory this object owns.
///
/// The slots `first..<end` (``LiveActions``) hold actions not handled yet; those before `first` were
/// handled and destroyed, those from `end` on were never used. Every operation keeps the range true, so
/// the object's `deinit` destroys exactly the actions still in it: a buffer dropped with actions in it
/// neither leaks them nor destroys one twice, and the memory goes back to the allocator with the object.
///
/// The class is generic over the tree's `Action`, and its methods reach the slots through the object,
/// whose metadata comes with it: in the library's unspecialised code, an array of `Action` would look up
/// its metadata in the runtime's caches on every append (Docs/Performance.md, "Where the engine stands").
// Safety: the slots are raw memory of the buffer, reached only inside its `withUnsafeMutablePointers`
// calls; `first..<end` are initialised, `end <= capacity` (checked on append), and the object is used by
// one owner at a time (``InboxBuffer``).
final class ActionStorage<Action>: ManagedBuffer<LiveActions, Action> {
    deinit {
        withUnsafeMutablePointers { live, actions in
            _ = (actions + live.pointee.first).deinitialize(count: live.pointee.count)
        }
    }

    /// Storage for `capacity` actions, holding the live actions of `old`, moved, if given; `old` is
    /// left empty.
    static func make(capacity: Int, movingFrom old: ActionStorage?) -> ActionStorage {
        // `create` returns an instance of the class it is called on, typed as `ManagedBuffer`: the cast
        // always succeeds, and runs only when a buffer grows, not per action.
        let made = create(minimumCapacity: capacity) { _ in LiveActions(capacity: capacity) }
        guard let storage = made as? ActionStorage else {
            preconditionFailure("Internal inconsistency: ManagedBuffer.create made a \(type(of: made))")
        }
        guard let old else { return storage }
        storage.withUnsafeMutablePointers { live, actions in
            old.withUnsafeMutablePointers { oldLive, oldActions in
                precondition(oldLive.pointee.count <= capacity, "Internal inconsistency: actions moved to less room")
                actions.moveInitialize(from: oldActions + oldLive.pointee.first, count: oldLive.pointee.count)
                live.pointee.end = oldLive.pointee.count
                oldLive.pointee.first = 0
                oldLive.pointee.end = 0
            }
        }
        return storage
    }

    /// Appends `action` after the live ones; the caller has checked that the storage is not full.
    @inline(__always)
    func append(_ action: Action) {
        withUnsafeMutablePointers { live, actions in
            precondition(live.pointee.end < live.pointee.capacity, "Internal inconsistency: an inbox buffer was full")
            (actions + live.pointee.end).initialize(to: action)
            live.pointee.end += 1
        }
    }

    /// Lends the first live action to `body`, which may change it in place, then destroys it, as a
    /// receiver handles one (``InboxAction/handle(as:_:)``).
    @inline(__always)
    func handleNext(_ body: (inout Action) -> Void) {
        handOverNext { $0.handle(as: Action.self, body) }
    }

    /// Hands the first live action to `body`, which handles it (``InboxAction``) and so leaves the slot
    /// uninitialised; the slot then counts as handled.
    @inline(__always)
    func handOverNext(_ body: (consuming InboxAction) -> Void) {
        withUnsafeMutablePointers { live, actions in
            // Safety: an initialised `Action`, valid for the call; `body` leaves it uninitialised, as the
            // range then says.
            body(InboxAction(at: actions + live.pointee.first))
            live.pointee.first += 1
        }
    }

    /// Hands the next action, that of `target`, to the target's receiver, or destroys it if the run that
    /// sent it is over; then reports the outcome to the entry's completion, if it has one.
    ///
    /// The receiver and the extras are taken out of the entry (`nil` left behind) and let go of when
    /// this call returns, before the drain settles what the entry let go of: a node whose last handle is
    /// gone leaves the tree right after its last action. Not inlined: in the drain's loop, its code made
    /// every plain action to the root pay more.
    @inline(never)
    func deliverNext(for target: inout InboxTarget, in turn: borrowing DrainTurn) {
        let extras = target.extras.take()
        guard let receiver = target.receiver.take() else {
            preconditionFailure("Internal inconsistency: an inbox target was delivered twice")
        }
        guard let extras else {
            // A plain dispatch: no run to check, the default entry context, no completion.
            handOverNext { _ = receiver.handle($0, entry: EntryContext(), in: turn) }
            return
        }
        var outcome = ProcessOutcome.blocked
        if extras.run?.isCurrent ?? true {
            handOverNext { outcome = receiver.handle($0, entry: extras.entry, in: turn) }
        } else {
            dropNext()
        }
        extras.completion?(outcome)
    }

    /// Destroys the first live action.
    func dropNext() {
        withUnsafeMutablePointers { live, actions in
            (actions + live.pointee.first).deinitialize(count: 1)
            live.pointee.first += 1
        }
    }

    /// Marks the storage empty once every action was handled, so the next batch starts at slot 0.
    @inline(__always)
    func resetHandled() {
        withUnsafeMutablePointerToHeader { live in
            assert(live.pointee.count == 0, "Internal inconsistency: an inbox action was not handled")
            live.pointee.first = 0
            live.pointee.end = 0
        }
    }
}

/// Which slots of an ``ActionStorage`` hold live actions, `first..<end`, and how many slots it has.
struct LiveActions {
    var first = 0
    var end = 0
    let capacity: Int

    /// How many actions are live.
    var count: Int { end - first }
}
