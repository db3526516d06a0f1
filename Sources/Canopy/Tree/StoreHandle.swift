import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a store (``StateStore``, ``AnyStore``) holds to reach its place in the tree: the handle of a
/// root's or a child's own node (``NodeHandle``), a view of another handle (``ViewHandle``), or a
/// reference to a node that does not keep it (``WeakHandle``). "This node" below is the node the handle
/// reaches.
///
/// Members marked "on the queue" may be used only on the tree's serial queue; the others from any thread.
protocol StoreHandle<State, Action>: AnyObject, Sendable {
    associatedtype State: Sendable
    associatedtype Action: Sendable

    /// The engine of the tree this node belongs to.
    var tree: StoreTree { get }

    /// Sends `action` to this node: it is reduced here, then by each ancestor, on the queue.
    func dispatch(_ action: Action)

    /// Sends `action` to this node, to be reduced only if `run` is still current when its turn comes.
    func dispatch(_ action: Action, from run: EffectRun)

    /// Sends `action` to this node, entering its middleware where `entry` says; `completion` is called on
    /// the queue with what became of it.
    func dispatch(
        _ action: Action,
        entry: EntryContext,
        completion: (@Sendable (DispatchOutcome<State>) -> Void)?
    )

    /// Runs `work` on the queue after everything sent before it, from any thread.
    ///
    /// - Returns: `false` when the tree is gone and the work was dropped.
    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool

    /// On the queue: reduces `action` as if dispatched to this node, and publishes the result.
    @discardableResult
    func receive(_ action: Action) -> ProcessOutcome

    /// On the queue: the node's current state.
    var state: State { get }

    /// On the queue: the node's current state, or `nil` when this is a weak handle whose node is gone.
    var stateIfAlive: State? { get }

    /// On the queue: adds an observer that calls `observe` (or, for an id it has, finds the observer
    /// with it) and sends it the current state.
    ///
    /// It takes the observer's parts, not an `Observer<State>`: the callers are closures generic over
    /// the handle, and there each `Observer<State>` they destroyed went through its metadata, looked up
    /// by hashing (about 330 instructions per subscription). The node makes the observer.
    ///
    /// - Parameters:
    ///   - identity: How the node finds the observer again: its id, or its subscription's gate.
    ///   - observe: What the observer calls.
    ///   - filter: The observer's dedup check, when `observe` is that check as a closure
    ///     (``ObserverRecord``): a node's list runs it in its loop instead. A child's observer inside its
    ///     cell, and a view's, whose observer sees another state than its node's, call `observe`.
    func addObserver(
        _ identity: ObserverIdentity,
        observe: @escaping Observer<State>.StateHandler,
        filter: AtomicProjectionFilter<State>?
    )

    /// A gate for a new subscription to this handle's observers, with the link of the node that holds
    /// them, which does not keep the node (``NodeLink/nodeIfInTree``): how the subscription asks to
    /// remove its observer.
    func callGate() -> CallGate

    /// A handle that reaches this node without keeping the tree alive, for as long as the node holding
    /// this node's observers lives (for a view, that is the node it views).
    ///
    /// Effects and async actions send their results through it.
    func weakHandle() -> any StoreHandle<State, Action>

    /// The place in the tree of the node this handle reaches (for a view, the node it views).
    var storeID: StoreID { get }

    /// The tree node behind this handle when it is one of the store's own (a root, a child), not a view
    /// or a weak handle.
    var stateNode: QueueBound<StateNode<State, Action>>? { get }

    /// The node that children made with `with(_:reducer:)` hang from: this node, or, for a view, a node
    /// that applies the view's transforms inside the tree.
    func nodeForChildren() -> QueueBound<StateNode<State, Action>>
}

extension StoreHandle {
    /// The tree's serial queue.
    var queue: DispatchQueue { tree.queue }

    /// The clock every delay of the tree goes through.
    var scheduler: any DelayScheduler { tree.scheduler }
}
