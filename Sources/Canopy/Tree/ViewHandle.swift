import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The handle of a `map(state:)`, `flatMap(state:)` or `map(actions:)` store: a view of another handle,
/// outside the tree.
///
/// Observers subscribed through a view live in the node it views, wrapped with the transform and keeping
/// their id, so a subscription made through a temporary view lasts as long as that node. Actions are
/// translated when dispatched and go to the viewed handle. Only a child made from a view puts the view
/// into the tree, as a ``MappedNode``.
final class ViewHandle<ParentState: Sendable, ParentAction: Sendable, State: Sendable, Action: Sendable>: StoreHandle {
    let parent: any StoreHandle<ParentState, ParentAction>
    private let transformState: @Sendable (ParentState) -> State
    private let transformAction: @Sendable (Action) -> ParentAction
    /// Whether `transformAction` is not the identity (it is for views made with `map(state:)`).
    private let translatesActions: Bool
    /// Whether a dispatched action of this view's type could be an ``AsyncAction`` (decided once).
    private let mayReceiveAsyncActions: Bool

    init(
        parent: any StoreHandle<ParentState, ParentAction>,
        state transformState: @escaping @Sendable (ParentState) -> State,
        action transformAction: @escaping @Sendable (Action) -> ParentAction,
        translatesActions: Bool = true
    ) {
        self.parent = parent
        self.transformState = transformState
        self.transformAction = transformAction
        self.translatesActions = translatesActions
        self.mayReceiveAsyncActions = ActionKind.mayBeAsyncAction(Action.self)
    }

    var tree: StoreTree { parent.tree }

    var storeID: StoreID { parent.storeID }

    func dispatch(_ action: Action) {
        let translated = transformAction(action)
        if let asyncAction = runsHere(action, translated: translated) {
            dispatch(translated, starting: asyncAction, entry: EntryContext(), completion: nil)
        } else {
            parent.dispatch(translated)
        }
    }

    /// `action` when it is an ``AsyncAction`` that this view must start itself: the translation hid it
    /// from the viewed store, which otherwise starts it.
    private func runsHere(_ action: Action, translated: ParentAction) -> (any AsyncAction)? {
        guard mayReceiveAsyncActions, let asyncAction = action as? any AsyncAction else { return nil }
        return translated is any AsyncAction ? nil : asyncAction
    }

    func dispatch(_ action: Action, from run: EffectRun) {
        parent.dispatch(transformAction(action), from: run)
    }

    func dispatch(
        _ action: Action,
        entry: EntryContext,
        completion: (@Sendable (DispatchOutcome<State>) -> Void)?
    ) {
        let translated = transformAction(action)
        dispatch(translated, starting: runsHere(action, translated: translated), entry: entry, completion: completion)
    }

    /// Sends `translated` to the viewed store as `dispatch(_:entry:completion:)` does, so that the store
    /// stays in the tree until it is reduced, even when `parent` is a weak handle whose store's last
    /// handle goes meanwhile (SPEC 2.1). Once it is reduced, on the queue, starts `asyncAction`, whose
    /// results come back to this view, then calls `completion` with the outcome, the state seen through
    /// this view.
    private func dispatch(
        _ translated: ParentAction,
        starting asyncAction: (any AsyncAction)?,
        entry: EntryContext,
        completion: (@Sendable (DispatchOutcome<State>) -> Void)?
    ) {
        guard asyncAction != nil || completion != nil else {
            parent.dispatch(translated, entry: entry, completion: nil)
            return
        }
        let transformState = self.transformState
        parent.dispatch(translated, entry: entry) { (outcome: DispatchOutcome<ParentState>) in
            switch outcome {
            case .reduced(let state):
                if let asyncAction {
                    self.execute(asyncAction)
                }
                completion?(.reduced(transformState(state)))
            case .blocked:
                completion?(.blocked)
            case .failed(let error):
                completion?(.failed(error))
            }
        }
    }

    @discardableResult
    func enqueue(_ work: @escaping @Sendable () -> Void) -> Bool {
        parent.enqueue(work)
    }

    @discardableResult
    func receive(_ action: Action) -> ProcessOutcome {
        let translated = transformAction(action)
        let outcome = parent.receive(translated)
        if case .reduced = outcome, let asyncAction = runsHere(action, translated: translated) {
            execute(asyncAction)
        }
        return outcome
    }

    var state: State {
        transformState(parent.state)
    }

    var stateIfAlive: State? {
        parent.stateIfAlive.map(transformState)
    }

    func addObserver(
        _ identity: ObserverIdentity,
        observe: @escaping Observer<State>.StateHandler,
        filter: AtomicProjectionFilter<State>?
    ) {
        // The node's observer sees the node's state: the filter, made for this view's state, stays
        // inside `observe`.
        let transformState = self.transformState
        parent.addObserver(identity, observe: { observe(transformState($0)) }, filter: nil)
    }

    func callGate() -> CallGate {
        parent.callGate()
    }

    // The same view over the parent's weak handle: it lives with whoever holds it (the observers it
    // serves live in the parent), and does not keep the parent alive.
    func weakHandle() -> any StoreHandle<State, Action> {
        ViewHandle(
            parent: parent.weakHandle(),
            state: transformState,
            action: transformAction,
            translatesActions: translatesActions
        )
    }

    var stateNode: QueueBound<StateNode<State, Action>>? { nil }

    func nodeForChildren() -> QueueBound<StateNode<State, Action>> {
        QueueBound(
            MappedNode(
                parent: parent.nodeForChildren(),
                state: transformState,
                action: transformAction,
                translatesActions: translatesActions
            )
        )
    }

    /// Runs `asyncAction` on its queue; each result comes back to this view without retaining the tree.
    private func execute(_ asyncAction: any AsyncAction) {
        asyncAction.start(resultsTo: weakHandle())
    }
}

extension ViewHandle where ParentAction == Action {
    /// A view with the parent's actions and a transformed state.
    convenience init(
        parent: any StoreHandle<ParentState, Action>,
        state transformState: @escaping @Sendable (ParentState) -> State
    ) {
        self.init(parent: parent, state: transformState, action: { $0 }, translatesActions: false)
    }
}

extension ViewHandle where ParentState == State {
    /// A view with the parent's state and transformed actions.
    convenience init(
        parent: any StoreHandle<State, ParentAction>,
        action transformAction: @escaping @Sendable (Action) -> ParentAction
    ) {
        self.init(parent: parent, state: { $0 }, action: transformAction)
    }
}
