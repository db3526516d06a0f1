/// The gates of a tree's subscriptions that were cancelled since the tree's queue last removed their
/// observers: cancelling adds its gate here, and one work item removes the observers of every gate
/// added by then.
///
/// A work item per cancel cost each one a push onto the tree's inbox and a run of the item on the
/// queue; cancelling many subscriptions at once now pays for one. The first gate added to an empty
/// batch enqueues the work item (``NodeLink/enqueueRemoval(of:holding:)``), which takes the whole batch
/// when it runs; a gate added after that starts a new batch, and a new work item. So every gate's
/// observer is removed by the first work item that runs after its cancel, as soon as when it had one of
/// its own.
///
/// A cancel has already closed the gate its handler is called through when it adds a gate here (the
/// gate itself, or for a props subscription its ``DeliveryGate``, whose observer's gate stays open):
/// the handler is never called again, whenever the removal runs. An observer whose removal runs before
/// its own addition (a subscription made and cancelled while an earlier batch waited in the inbox) goes
/// as soon as it is added: its first call finds its subscription closed, answers `.dead`, and the node
/// removes it.
struct CancelledGates: Sendable {
    /// The gates added since the last batch was taken. Not `Mutex`: see ``LockedValue``.
    private let gates = LockedValue<[CallGate]>([])

    /// From any thread: adds `gate` to the batch; returns whether the batch was empty, in which case
    /// the caller enqueues the work item that runs ``removeObservers()``.
    func add(_ gate: CallGate) -> Bool {
        gates.withLock { gates in
            gates.append(gate)
            return gates.count == 1
        }
    }

    /// From any thread: how many gates wait in the batch (tests look at it).
    var count: Int {
        gates.withLock { $0.count }
    }

    /// On the tree's queue: takes the batch and removes each gate's observer from its node.
    ///
    /// A node compacts its list once for a run of removals from it, not after each: the gates of one
    /// node usually follow each other in the batch, and a list that many cancels empty was compacted
    /// again and again on the way down, its index made again each time.
    func removeObservers() {
        // Taken under the lock, used after it: removing an observer releases what its handler captured,
        // which may run any code.
        let batch = gates.exchange([])
        var host: TreeNode?
        for gate in batch {
            guard let removedFrom = gate.removeObserverLeavingSlot(), removedFrom !== host else { continue }
            host?.compactObservers()
            host = removedFrom
        }
        host?.compactObservers()
    }
}
