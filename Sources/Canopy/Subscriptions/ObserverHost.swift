#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The node that holds a subscription's observer, as its token sees it: something it can ask, from any
/// thread, to remove that observer.
///
/// A token holds its host weakly, so a subscription never keeps its store alive; the host is a class
/// (the node), so that reference is one weak existential field of the gate rather than a closure
/// context of its own.
protocol ObserverHost: AnyObject, Sendable {
    /// From any thread: removes the observer with `id` on the tree's queue, after everything enqueued
    /// before this call. The pending removal does not keep the node alive.
    func removeObserverLater(id: UUID)
}
