import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One node of a store tree: the root, a child made with `with(_:reducer:)`, a mapped view, or a weak
/// handle.
///
/// Strong references point up the tree only: a node holds its parent, a parent holds its children
/// weakly. Members marked "on the queue" may be used only on the tree's serial queue.
protocol StoreNode<State, Action>: AnyObject, Sendable {
    associatedtype State: Sendable
    associatedtype Action: Sendable

    /// The tree's serial queue, shared by every node of the tree.
    var queue: DispatchQueue { get }

    /// The clock that every delay of this tree goes through.
    var scheduler: any DelayScheduler { get }

    /// Whether a dispatched action of this node's type could be an `AsyncAction` (decided once).
    var mayReceiveAsyncActions: Bool { get }

    /// Runs `work` on the queue after everything enqueued before it, from any thread.
    ///
    /// - Returns: `false` when the tree is gone and the work was dropped.
    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool

    /// Enqueues `action` for this node, from any thread.
    func dispatch(_ action: Action)

    /// Enqueues `action` for `receiver`, a node below this one with the same action type, from any
    /// thread. Through the root's inbox it costs no allocation; a node that changes the action type on
    /// the way up wraps it in a work item instead.
    func forward(_ action: Action, to receiver: any ErasedActionReceiver)

    /// On the queue: runs this node's reducer and its ancestors' (leaf first), then publishes the new
    /// state from the root down.
    func reduce(_ action: Action)

    /// On the queue: the node's current state.
    var state: State { get }

    /// On the queue: adds `observer` (or finds the one with its id) and sends it the current state.
    func addObserver(_ observer: Observer<State>)

    /// On the queue: removes the observer with `id`, if any.
    func removeObserver(id: UUID)

    /// Returns a closure, callable from any thread, that removes the observer with `id` from the node
    /// that holds it, without keeping that node alive.
    func observerRemover(id: UUID) -> @Sendable () -> Void

    /// On the queue: starts sending this node's states to `child`.
    func addChild(_ child: any StateListener<State>)

    /// A handle that reaches this node without keeping the tree alive, and that works for as long as
    /// the node holding this node's observers lives (for a view, that is its parent, not the view).
    ///
    /// Effects and async actions send their results through it.
    func weakHandle() -> any StoreNode<State, Action>
}

/// A node that takes its actions from the root's inbox, where they wait in raw memory.
protocol ErasedActionReceiver: AnyObject, Sendable {
    /// On the queue: moves the action out of `action` and handles it as if dispatched to this node.
    ///
    /// - Parameter action: Points at an initialised value of the receiver's `Action`, which is left
    ///   uninitialised.
    func receiveAction(at action: UnsafeMutableRawPointer)
}

/// A node that wants its parent's state whenever it changes, reachable without naming the state's type.
///
/// A parent keeps its children through this non-generic protocol, so walking them costs no runtime
/// metadata lookups (see `ChildList`); the typed ``StateListener`` is what a child registers with.
protocol ErasedStateListener: AnyObject, Sendable {
    /// On the queue: the parent has a new state, passed by address.
    ///
    /// - Parameter state: Points at a value of the listener's `ParentState`: a parent only sends its own
    ///   state, and a child registers only with a parent whose state is its `ParentState`.
    func parentDidChange(at state: UnsafeRawPointer)
}

/// A node that wants its parent's state whenever it changes.
protocol StateListener<ParentState>: ErasedStateListener {
    associatedtype ParentState

    /// On the queue: the parent has a new state.
    func parentDidChange(_ state: ParentState)
}

extension StoreNode {
    func dispatch(_ action: Action) {
        enqueue { self.receive(action) }
    }

    func forward(_ action: Action, to receiver: any ErasedActionReceiver) {
        enqueue {
            let slot = UnsafeMutablePointer<Action>.allocate(capacity: 1)
            slot.initialize(to: action)
            receiver.receiveAction(at: slot)
            slot.deallocate()
        }
    }

    func observerRemover(id: UUID) -> @Sendable () -> Void {
        { [weak self] in
            self?.enqueue { [weak self] in self?.removeObserver(id: id) }
        }
    }

    func weakHandle() -> any StoreNode<State, Action> {
        WeakNode(self)
    }

    /// On the queue: handles an action dispatched to this node: reduces it, then starts it if it is an
    /// `AsyncAction`.
    @inline(__always)
    func receive(_ action: Action) {
        reduce(action)
        if mayReceiveAsyncActions, let asyncAction = action as? any AsyncAction {
            execute(asyncAction)
        }
    }

    /// Runs `asyncAction` on its queue; each result goes back to this node without retaining it.
    private func execute<Async: AsyncAction>(_ asyncAction: Async) {
        let handle = weakHandle()
        asyncAction.dispatchQueue.async {
            asyncAction.execute { result in
                guard let action = result as? Action else {
                    assertionFailure(
                        "AsyncAction \(Async.self) completed with \(type(of: result)), which is not an action of "
                            + "this store (\(Action.self)); the result is dropped"
                    )
                    return
                }
                handle.dispatch(action)
            }
        }
    }
}
