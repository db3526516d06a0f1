#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How a node finds one of its observers again, given as the observer is added
/// (``StoreHandle/addObserver(_:observe:filter:)``).
enum ObserverIdentity {
    /// An app's ``Observer``, found by its id: subscribing one with an id that an observer of the node has
    /// adds nothing, and the node's index of ids holds it once the node has many observers.
    case id(UUID)

    /// A subscription's observer (``StoreHandle/subscription(removeDuplicates:_:)``, or a props
    /// subscription's pipeline, ``SubscriptionPipeline``), found through its gate, which keeps the
    /// observer's slot (``CallGate/slot``). It is always new, and no index of ids holds it.
    case gate(CallGate)
}
