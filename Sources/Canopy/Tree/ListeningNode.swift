import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a node keeps on the queue: its own slice of state and who listens to it.
struct NodeStorage<State, Local> {
    var local: Local
    var listeners = Listeners<State>()
    /// Whether the node has registered with its parent to receive state changes.
    var isAttached = false
}

/// A node that owns observers and children (every node but a weak handle).
protocol ListeningNode: StoreNode {
    associatedtype Local

    var storage: QueueConfined<NodeStorage<State, Local>> { get }

    /// On the queue: asks the parent to send state changes to this node. Called once, when the node
    /// gets its first listener, so nodes nobody listens to cost nothing on each action.
    func attachToParent()
}

extension ListeningNode {
    func addObserver(_ observer: Observer<State>) {
        attachIfNeeded()
        storage.value.listeners.add(observer)
        if observer.observe(state) == .dead {
            storage.value.listeners.remove(id: observer.id)
        }
    }

    func removeObserver(id: UUID) {
        storage.value.listeners.remove(id: id)
    }

    func addChild(_ child: any StateListener<State>) {
        attachIfNeeded()
        storage.value.listeners.add(child)
    }

    /// On the queue: whether anyone listens to this node's state.
    var hasListeners: Bool {
        !storage.value.listeners.isEmpty
    }

    /// On the queue: sends `state` to the observers, then the children.
    func publish(_ state: State) {
        let listeners = storage.value.listeners
        let cleanup = listeners.send(state)
        if cleanup.isNeeded {
            storage.value.listeners.apply(cleanup)
        }
    }

    private func attachIfNeeded() {
        guard !storage.value.isAttached else { return }
        storage.value.isAttached = true
        attachToParent()
    }
}
