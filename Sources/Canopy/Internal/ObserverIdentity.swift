#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a node finds one of its observers again, given as the observer is added
/// (``StoreHandle/addObserver(_:observe:filter:)``).
enum ObserverIdentity {
    /// An observer found by its id: an app's ``Observer``, or a props subscription's
    /// (``SubscriptionPipeline``). `isNew` says the id was made for this call (``SubscriptionIDs/next()``),
    /// so no observer of the node can have it, and the node adds the observer without looking for one
    /// with that id; an app's ``Observer`` may be subscribed again, and is looked for.
    case id(UUID, isNew: Bool)

    /// A subscription's observer whose handler runs on the tree's queue, found through its gate, which
    /// keeps the observer's slot (``CallGate/slot``). It is always new, and no index of ids holds it.
    case gate(CallGate)
}
