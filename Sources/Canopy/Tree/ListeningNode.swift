import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A node that owns observers and children (every node but a weak handle).
protocol ListeningNode: StoreNode {
    associatedtype Local

    var storage: NodeStorage<State, Local> { get }

    /// On the queue: asks the parent to send state changes to this node. Called once, when the node
    /// gets its first listener, so nodes nobody listens to cost nothing on each action.
    func attachToParent()
}

extension ListeningNode {
    func addObserver(_ observer: Observer<State>) {
        attachIfNeeded()
        storage.add(observer)
        if observer.observe(state) == .dead {
            storage.removeObserver(id: observer.id)
        }
    }

    func removeObserver(id: UUID) {
        storage.removeObserver(id: id)
    }

    func addChild(_ child: any StateListener<State>) {
        attachIfNeeded()
        storage.add(child)
    }

    private func attachIfNeeded() {
        guard !storage.isAttached else { return }
        storage.isAttached = true
        attachToParent()
    }
}
