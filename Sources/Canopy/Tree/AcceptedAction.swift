/// The receiver of an action that a weak route (a weak store handle, a middleware's route to the node
/// its action was sent to) accepted for a node below the root: it keeps the node alive and in the tree
/// from the moment the action is accepted until it has been handled.
///
/// A weak route accepts an action only while a store or a child holds the node
/// (``NodeLink/keepForAcceptedAction()`` decides that in one atomic step), so an accepted action is
/// reduced like any other even if every store lets go of the node before the queue reaches it
/// (SPEC 2.1, 2.2). One is made per accepted action; the inbox entry holds it and releases it right
/// after the action is handled.
final class AcceptedAction<Action: Sendable>: InboxReceiver {
    private let node: ActionNode<Action>

    /// Keeps `node`, which is below the root, for one action, or returns `nil` when the node is released
    /// (no store or child holds it): the weak route then drops the action.
    private init?(for node: ActionNode<Action>) {
        guard node.link.keepForAcceptedAction() else { return nil }
        self.node = node
    }

    deinit {
        node.link.letGoOfAcceptedAction()
    }

    /// What an action a weak route sends to `node` waits in the inbox with: the root itself (a tree
    /// lives while its root does, and the entry holds the root until the action's turn), or, below the
    /// root, an accepted action that keeps the node; `nil` when the node is released.
    static func receiver(for node: ActionNode<Action>) -> (any InboxReceiver)? {
        guard node.depth > 0 else { return node }
        return AcceptedAction(for: node)
    }

    /// Hands the action to `node`, which `self`, held by the entry, keeps alive for the call.
    func handle(_ action: consuming InboxAction, entry: EntryContext) -> ProcessOutcome {
        node.handle(action, entry: entry)
    }
}
