#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The node that holds a subscription's observer, as its token sees it: where the token sends the
/// observer's removal when it is cancelled.
///
/// A token holds its host weakly, so a subscription never keeps its store alive; the host is a class
/// (the node), so that reference is one weak existential field of the gate rather than a closure
/// context of its own.
protocol ObserverHost: AnyObject, Sendable {
    /// From any thread: runs `work` on the tree's queue, after everything enqueued before it.
    func enqueueWork(_ work: @escaping @Sendable () -> Void)

    /// On the tree's queue: removes the observer with `id`, if the node has it.
    func removeObserver(id: UUID)

    /// From any thread: has the tree's queue remove the observer of `gate`, which was just closed, with
    /// those of the other gates cancelled meanwhile (``CancelledGates``).
    func enqueueRemoval(of gate: CallGate)
}
