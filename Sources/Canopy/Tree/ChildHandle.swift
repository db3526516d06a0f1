#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The handle of a child made with `with(_:reducer:)`: what every `StateStore` and `AnyStore` of the
/// child holds.
///
/// It stands for the stores that hold it: while it lives, it keeps the node in the tree (one of the
/// node's ``TreeNode/keepers``); when the last store lets go of it, the node leaves the tree on the
/// queue, at once, and is freed there unless a child of its own or a pending action still holds it.
/// Everything else it forwards to the node.
final class ChildHandle<State: Sendable, Action: Sendable>: StoreNode {
    let node: StateNode<State, Action>

    init(_ node: StateNode<State, Action>) {
        self.node = node
        node.keep()
    }

    deinit {
        node.letGo()
    }

    var tree: StoreTree { node.tree }

    var storeID: StoreID { node.storeID }

    var stateNode: StateNode<State, Action>? { node }

    func dispatch(_ action: Action) {
        node.dispatch(action)
    }

    func dispatch(_ action: Action, from run: EffectRun) {
        node.dispatch(action, from: run)
    }

    func dispatch(
        _ action: Action,
        entry: EntryContext,
        completion: (@Sendable (DispatchOutcome<State>) -> Void)?
    ) {
        node.dispatch(action, entry: entry, completion: completion)
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        node.enqueue(work)
    }

    @discardableResult
    func receive(_ action: Action) -> ProcessOutcome {
        node.receive(action)
    }

    var state: State { node.state }

    var stateIfAlive: State? { node.stateIfAlive }

    func addObserver(_ observer: Observer<State>) {
        node.addObserver(observer)
    }

    func removeObserver(id: UUID) {
        node.removeObserver(id: id)
    }

    func observerRemover(id: UUID) -> @Sendable () -> Void {
        node.observerRemover(id: id)
    }

    func weakHandle() -> any StoreNode<State, Action> {
        node.weakHandle()
    }

    func nodeForChildren() -> StateNode<State, Action> {
        node
    }
}
