import Dispatch

/// A child made with `with(_:reducer:)`: its state is the parent's state paired with its own.
///
/// It holds its parent strongly and is held by its parent only weakly, so releasing the last handle
/// frees the local state at once.
final class ChildNode<ParentState: Sendable, Local: Sendable, Action: Sendable>:
    ListeningNode, StateListener, ErasedActionReceiver
{
    typealias State = (ParentState, Local)

    let parent: any StoreNode<ParentState, Action>
    let storage: NodeStorage<State, Local>
    let mayReceiveAsyncActions: Bool
    private let reducer: Reducer<Local, Action>

    init(parent: any StoreNode<ParentState, Action>, initialState: Local, reducer: @escaping Reducer<Local, Action>) {
        self.parent = parent
        self.storage = NodeStorage(local: initialState, queue: parent.queue)
        self.mayReceiveAsyncActions = parent.mayReceiveAsyncActions
        self.reducer = reducer
    }

    var queue: DispatchQueue { parent.queue }

    var scheduler: any DelayScheduler { parent.scheduler }

    var state: State {
        (parent.state, storage.local)
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        parent.enqueue(work)
    }

    /// Sends `action` up to the root's inbox with this node as its receiver: no closure to allocate.
    func dispatch(_ action: Action) {
        parent.forward(action, to: self)
    }

    func forward(_ action: Action, to receiver: any ErasedActionReceiver) {
        parent.forward(action, to: receiver)
    }

    func receiveAction(at action: UnsafeMutableRawPointer) {
        receive(action.assumingMemoryBound(to: Action.self).move())
    }

    func reduce(_ action: Action) {
        reducer(&storage.local, action)
        parent.reduce(action)
    }

    func parentDidChange(at state: UnsafeRawPointer) {
        parentDidChange(state.assumingMemoryBound(to: ParentState.self).pointee)
    }

    func parentDidChange(_ parentState: ParentState) {
        guard storage.hasListeners else { return }
        storage.publish((parentState, storage.local))
    }

    func attachToParent() {
        parent.addChild(self)
    }
}
