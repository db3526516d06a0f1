/// The receiver of an action that a weak route accepted (a weak store handle, a middleware's route to
/// the node its action was sent to): it keeps the node alive and in the tree, as a store's handle
/// would, from the moment the action is accepted until the action has been handled.
///
/// A weak route accepts an action only while its node is in the tree (``TreeNode/keepIfInTree()``
/// decides that in one atomic step), so an accepted action is reduced like any other even if every
/// store lets go of the node before the queue reaches it (SPEC 2.1, 2.2). One is made per accepted
/// action; the inbox entry holds it and releases it right after the action is handled.
final class AcceptedAction<Action: Sendable>: InboxReceiver {
    private let node: ActionNode<Action>

    /// Keeps `node` for one action, or returns `nil` when the node has already left the tree (every
    /// store and every pending action let go of it): a weak route then drops the action.
    init?(for node: ActionNode<Action>) {
        guard node.keepIfInTree() else { return nil }
        self.node = node
    }

    deinit {
        node.letGo()
    }

    func receiveAction(at action: UnsafeMutableRawPointer, entry: EntryContext) -> ProcessOutcome {
        node.receiveAction(at: action, entry: entry)
    }
}
