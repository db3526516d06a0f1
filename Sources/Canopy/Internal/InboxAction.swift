/// The action an inbox hands its receiver (``InboxReceiver``): the next one of the drain's batch, still
/// in the batch's storage (``ActionStorage``), which the receiver handles in place, once.
///
/// The inbox keeps actions for receivers of every type in one storage of the tree's `Action`, and a
/// receiver is reached through an existential that does not carry that type; a receiver names it when it
/// handles the action (``handle(as:_:)``). Not copyable: a receiver that has handled the action no longer
/// has it, so none can handle it twice or keep it past its call; and one dropped without being handled,
/// which would leave the action neither handled nor destroyed, stops a debug build in its `deinit`.
struct InboxAction: ~Copyable {
    // Safety: the address of an initialised action in the live range of the drain's `ActionStorage`,
    // valid until the receiver's call returns (`ActionStorage.handOverNext(_:)`), whose type is the
    // receiver's `Action`: an entry is pushed only for a receiver of the inbox's action type
    // (`ActionNode.push(_:through:)` reaches the inbox through the node's `sharedInbox`, an `Inbox<Action>`).
    private let address: UnsafeMutableRawPointer

    // Safety: as above; only `ActionStorage.handOverNext(_:)` makes one.
    init(at address: UnsafeMutableRawPointer) {
        self.address = address
    }

    /// Lends the action to `body` as an `Action`, in place, then destroys it: the slot is left
    /// uninitialised, as the storage then counts it.
    @inline(__always)
    consuming func handle<Action, Result>(as _: Action.Type, _ body: (inout Action) -> Result) -> Result {
        // Safety: an `Action` lies at `address` (above); it is moved out once `body` is done with it.
        let action = address.assumingMemoryBound(to: Action.self)
        let result = body(&action.pointee)
        // Moved out to be destroyed: in unspecialised code, `deinitialize(count:)` is a call into the
        // standard library that destroys an array, about 20 instructions more. Not in a `defer`, which
        // became a function of its own, generic over the result too.
        _ = action.move()
        discard self
        return result
    }

    deinit {
        assertionFailure("Internal inconsistency: an inbox action was dropped without being handled")
    }
}
