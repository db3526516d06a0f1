#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A handle that reaches a node without keeping it, or its tree, alive (`weakStore()`, and the handles
/// effects and async actions send their results through).
///
/// Once the node is gone, dispatching and subscribing through the handle do nothing. An action the
/// handle accepts (a store or a child still held its node) waits in the inbox with an ``AcceptedAction``,
/// which keeps the node until the action is handled: an accepted action is reduced even if the node's
/// last store goes before the queue reaches it (SPEC 2.1). The handle itself keeps nothing.
final class WeakHandle<State: Sendable, Action: Sendable>: StoreHandle {
    /// The node, not kept.
    private let node: NodeReference<StateNode<State, Action>>
    let tree: StoreTree
    let storeID: StoreID

    init(_ node: NodeReference<StateNode<State, Action>>) {
        self.node = node
        self.tree = node.link.tree
        self.storeID = node.assumingAlive.storeID
    }

    /// The node, unless every store of it and every child made from it let go of it (it may linger a
    /// moment, until the tree's queue takes it out of the tree, but it is released as far as a weak
    /// handle goes).
    private var target: QueueBound<StateNode<State, Action>>? {
        node.ifHeld
    }

    func dispatch(_ action: Action) {
        push(action, guardedBy: nil)
    }

    func dispatch(_ action: Action, from run: EffectRun) {
        push(action, guardedBy: run)
    }

    private func push(_ action: Action, guardedBy run: EffectRun?) {
        guard let node = target, let accepted = AcceptedAction.receiver(for: node.asActionNode()) else { return }
        node.push(action, through: accepted, guardedBy: run)
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard let target else { return false }
        target.enqueueWork(work)
        return true
    }

    // The members below run on the queue.

    @discardableResult
    func receive(_ action: Action) -> ProcessOutcome {
        guard let target else { return .failed(StoreReleasedError()) }
        return target.withNode { tree.process(copyOf: action, at: $0) }
    }

    func dispatch(
        _ action: Action,
        entry: EntryContext,
        completion: (@Sendable (DispatchOutcome<State>) -> Void)?
    ) {
        guard let node = target, let accepted = AcceptedAction.receiver(for: node.asActionNode()) else {
            completion?(.failed(StoreReleasedError()))
            return
        }
        let outcome = completion.map { StateNode.outcomeHandler(for: self.node, $0) }
        node.push(action, through: accepted, entry: entry, outcome: outcome)
    }

    var state: State {
        guard let target else {
            preconditionFailure("Internal inconsistency: the state of a released store was read through a weak handle")
        }
        return target.withNode { $0.state }
    }

    var stateIfAlive: State? {
        target?.withNode { $0.state }
    }

    func addObserver(
        _ identity: ObserverIdentity,
        observe: @escaping Observer<State>.StateHandler,
        filter: AtomicProjectionFilter<State>?
    ) {
        target?.withNode { $0.addObserver(identity, observe: observe, filter: filter) }
    }

    func callGate() -> CallGate {
        CallGate(host: target?.link, callingThread: tree.callingThread)
    }

    func weakHandle() -> any StoreHandle<State, Action> {
        self
    }

    var stateNode: QueueBound<StateNode<State, Action>>? { nil }

    func nodeForChildren() -> QueueBound<StateNode<State, Action>> {
        preconditionFailure("Internal inconsistency: a child store was made from a weak store handle")
    }
}
