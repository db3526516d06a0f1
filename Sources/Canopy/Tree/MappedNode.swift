import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A view of a parent node with its state and/or its actions transformed (`map(state:)`,
/// `flatMap(state:)`, `map(actions:)`). It has no state of its own.
///
/// Observers subscribed through a view live in the parent, wrapped with the transform and keeping
/// their id, so a subscription made through a temporary view lasts as long as the parent. Children
/// made from a view hold the view, so only then does the view itself listen to its parent.
final class MappedNode<ParentState: Sendable, ParentAction: Sendable, State: Sendable, Action: Sendable>:
    ListeningNode, StateListener
{
    typealias Local = Void

    let parent: any StoreNode<ParentState, ParentAction>
    let storage: NodeStorage<State, Void>
    let mayReceiveAsyncActions: Bool
    private let transformState: @Sendable (ParentState) -> State
    private let transformAction: @Sendable (Action) -> ParentAction

    init(
        parent: any StoreNode<ParentState, ParentAction>,
        state transformState: @escaping @Sendable (ParentState) -> State,
        action transformAction: @escaping @Sendable (Action) -> ParentAction
    ) {
        self.parent = parent
        self.storage = NodeStorage(local: (), queue: parent.queue)
        self.mayReceiveAsyncActions = ActionKind.mayBeAsyncAction(Action.self)
        self.transformState = transformState
        self.transformAction = transformAction
    }

    var queue: DispatchQueue { parent.queue }

    var scheduler: any DelayScheduler { parent.scheduler }

    var state: State {
        transformState(parent.state)
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        parent.enqueue(work)
    }

    func reduce(_ action: Action) {
        parent.reduce(transformAction(action))
    }

    func addObserver(_ observer: Observer<State>) {
        let transformState = self.transformState
        parent.addObserver(Observer(id: observer.id) { observer.observe(transformState($0)) })
    }

    func removeObserver(id: UUID) {
        parent.removeObserver(id: id)
    }

    func observerRemover(id: UUID) -> @Sendable () -> Void {
        parent.observerRemover(id: id)
    }

    // The same view over the parent's weak handle: it lives with whoever holds it (the observers it
    // serves live in the parent), and does not keep the parent alive.
    func weakHandle() -> any StoreNode<State, Action> {
        MappedNode(parent: parent.weakHandle(), state: transformState, action: transformAction)
    }

    func parentDidChange(at state: UnsafeRawPointer) {
        parentDidChange(state.assumingMemoryBound(to: ParentState.self).pointee)
    }

    func parentDidChange(_ parentState: ParentState) {
        guard storage.hasListeners else { return }
        storage.publish(transformState(parentState))
    }

    func attachToParent() {
        parent.addChild(self)
    }
}

extension MappedNode where ParentAction == Action {
    /// A view with the parent's actions and a transformed state.
    convenience init(
        parent: any StoreNode<ParentState, Action>,
        state transformState: @escaping @Sendable (ParentState) -> State
    ) {
        self.init(parent: parent, state: transformState, action: { $0 })
    }
}

extension MappedNode where ParentState == State {
    /// A view with the parent's state and transformed actions.
    convenience init(
        parent: any StoreNode<State, ParentAction>,
        action transformAction: @escaping @Sendable (Action) -> ParentAction
    ) {
        self.init(parent: parent, state: { $0 }, action: transformAction)
    }
}
