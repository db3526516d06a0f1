/// A view of a node inside the tree, with its state and/or actions transformed: what children made from
/// a `map(state:)`, `flatMap(state:)` or `map(actions:)` store hang from. It has no state of its own.
///
/// Views nobody hangs children from stay outside the tree (``ViewHandle``).
final class MappedNode<ParentState: Sendable, ParentAction: Sendable, State: Sendable, Action: Sendable>:
    StateNode<State, Action>
{
    let parent: StateNode<ParentState, ParentAction>
    private let transformState: @Sendable (ParentState) -> State
    private let transformAction: @Sendable (Action) -> ParentAction
    /// The parent, when this view passes actions on unchanged (`map(state:)`): the walk up then goes
    /// on in the same loop.
    private let sameActionParent: ActionNode<Action>?

    init(
        parent boundParent: QueueBound<StateNode<ParentState, ParentAction>>,
        state transformState: @escaping @Sendable (ParentState) -> State,
        action transformAction: @escaping @Sendable (Action) -> ParentAction,
        translatesActions: Bool
    ) {
        let parent = boundParent.parentForNewNode
        self.parent = parent
        self.transformState = transformState
        self.transformAction = transformAction
        // Decided once, here: a view that keeps the action type shares the root's inbox and continues
        // the walk up in the same loop; one that translates actions sends its children's actions as
        // work items and continues the walk with the translated action.
        let sameActionParent = translatesActions ? nil : parent as? ActionNode<Action>
        self.sameActionParent = sameActionParent
        // It shares the root's inbox when its parent does and its actions are the parent's type.
        super.init(
            tree: parent.tree,
            parent: parent,
            sharedInbox: parent.sharedInbox as? Inbox<Action>,
            translatesActions: sameActionParent == nil
        )
    }

    deinit {
        letGoOfParent(parent)
    }

    override var parentNode: TreeNode? {
        parent
    }

    /// The parent when it takes the same actions; `nil` when this view translates them, and the walk
    /// goes on with the translated action in `continueTranslated`.
    override func reduceOwn(_ action: Action) -> ActionNode<Action>? {
        sameActionParent
    }

    override func continueTranslated<Path: PathRecorder>(_ action: Action, path: inout Path) {
        guard sameActionParent == nil else { return }
        path.record(parent, above: ObjectIdentifier(self))
        tree.reduceUp(transformAction(action), from: parent, path: &path)
    }

    override func untranslatedParent() -> ActionNode<Action>? {
        sameActionParent
    }

    override func refresh(parentChanged: Bool, onPath: Bool) -> Bool {
        guard parentChanged else { return false }
        recompute(makingCache: true)
        return true
    }

    /// A mapped node exists for the children that hang from it, which read its cache: it always makes
    /// one.
    override func recompute(makingCache: Bool) {
        setCachedState(parent.readCache { transformState($0) })
    }
}
