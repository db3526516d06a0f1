#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The handle of a store's own node, a root or a child made with `with(_:reducer:)`: what every
/// `StateStore` and `AnyStore` of the store holds.
///
/// It stands for the stores that hold it, and, below the root, for the actions sent through them: the
/// inbox entry of such an action holds the handle until the action is handled. While it lives, it is
/// one of the node's holders (``NodeLink``); when the last store and the last of those actions let go of
/// it, weak handles, tokens and routes no longer reach the node, and a child leaves the tree on the
/// queue, at once, and is freed there unless a child of its own, or an action sent some other way,
/// still holds it. A root is freed with its last reference. Everything else it forwards to the node.
final class NodeHandle<State: Sendable, Action: Sendable>: StoreHandle, InboxReceiver {
    let node: QueueBound<StateNode<State, Action>>

    /// The handle of `node`, which the caller has just made.
    init(_ node: StateNode<State, Action>) {
        node.keep()
        self.node = QueueBound(node)
    }

    deinit {
        node.link.letGo()
    }

    var tree: StoreTree { node.tree }

    var storeID: StoreID { node.storeID }

    var stateNode: QueueBound<StateNode<State, Action>>? { node }

    // Below the root, an action dispatched through the handle waits in the inbox with the handle, which
    // keeps the node in the tree until the action is reduced. The root's plain dispatch needs no entry of
    // its own: the drain, which the root's inbox leads to, holds the root.

    func dispatch(_ action: Action) {
        if node.depth == 0 {
            node.dispatchToRoot(action)
        } else {
            node.push(action, through: self)
        }
    }

    func dispatch(_ action: Action, from run: EffectRun) {
        node.push(action, through: self, guardedBy: run)
    }

    func dispatch(
        _ action: Action,
        entry: EntryContext,
        completion: (@Sendable (DispatchOutcome<State>) -> Void)?
    ) {
        let outcome = completion.map { StateNode.outcomeHandler(for: NodeReference(node), $0) }
        node.push(action, through: self, entry: entry, outcome: outcome)
    }

    /// Hands the action to the node, which this handle, held by the entry, keeps alive for the call.
    func handle(_ action: consuming InboxAction, entry: EntryContext, in turn: borrowing DrainTurn) -> ProcessOutcome {
        node.inDrain(turn, passing: action) { $0.handle($1, entry: entry) }
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        node.enqueueWork(work)
        return true
    }

    @discardableResult
    func receive(_ action: Action) -> ProcessOutcome {
        node.withNode { $0.receive(action) }
    }

    var state: State { node.withNode { $0.state } }

    var stateIfAlive: State? { node.withNode { $0.state } }

    func addObserver(
        _ identity: ObserverIdentity,
        observe: @escaping Observer<State>.StateHandler,
        filter: AtomicProjectionFilter<State>?
    ) {
        node.withNode { $0.addObserver(identity, observe: observe, filter: filter) }
    }

    func callGate() -> CallGate {
        CallGate(host: node.link, callingThread: tree.callingThread)
    }

    func weakHandle() -> any StoreHandle<State, Action> {
        WeakHandle(NodeReference(node))
    }

    func nodeForChildren() -> QueueBound<StateNode<State, Action>> {
        node
    }
}
