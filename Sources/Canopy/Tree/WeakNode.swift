import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A handle that reaches a node without keeping it, or its tree, alive (`weakStore()`).
///
/// Once the target is gone, dispatching and subscribing through the handle do nothing. Work enqueued
/// through it keeps the target alive only until that work has run.
final class WeakNode<State: Sendable, Action: Sendable>: StoreNode {
    private weak let target: (any StoreNode<State, Action>)?
    let queue: DispatchQueue
    let scheduler: any DelayScheduler
    let mayReceiveAsyncActions: Bool

    init(_ target: any StoreNode<State, Action>) {
        self.target = target
        self.queue = target.queue
        self.scheduler = target.scheduler
        self.mayReceiveAsyncActions = target.mayReceiveAsyncActions
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard let target else { return false }
        return target.enqueue { withExtendedLifetime(target) { work() } }
    }

    func dispatch(_ action: Action) {
        target?.dispatch(action)
    }

    func forward(_ action: Action, to receiver: any ErasedActionReceiver) {
        target?.forward(action, to: receiver)
    }

    // The members below run on the queue inside work enqueued through this handle, which keeps the
    // target alive, or are called by the target itself.

    func reduce(_ action: Action) {
        liveTarget.reduce(action)
    }

    var state: State {
        liveTarget.state
    }

    func addObserver(_ observer: Observer<State>) {
        liveTarget.addObserver(observer)
    }

    func removeObserver(id: UUID) {
        target?.removeObserver(id: id)
    }

    func observerRemover(id: UUID) -> @Sendable () -> Void {
        guard let target else { return {} }
        return target.observerRemover(id: id)
    }

    func addChild(_ child: any StateListener<State>) {
        liveTarget.addChild(child)
    }

    func weakHandle() -> any StoreNode<State, Action> {
        self
    }

    private var liveTarget: any StoreNode<State, Action> {
        guard let target else {
            preconditionFailure(
                "Internal inconsistency: a weak store handle was used on the queue after its store was released"
            )
        }
        return target
    }
}
