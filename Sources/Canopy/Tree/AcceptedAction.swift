/// The receiver of an action that a weak route (a weak store handle, a middleware's route to the node
/// its action was sent to) accepted for a node: it keeps the node alive, and below the root in the tree,
/// from the moment the action is accepted until it has been handled.
///
/// A weak route accepts an action only while a store or a child holds the node
/// (``NodeLink/keepForAcceptedAction()`` decides that in one atomic step), so an accepted action is
/// reduced like any other even if every store lets go of the node before the queue reaches it
/// (SPEC 2.1, 2.2). One is made per accepted action; the inbox entry holds it and releases it right
/// after the action is handled. The root needs no count: a tree lives while its root does, and the entry
/// holds the root until the action's turn.
final class AcceptedAction<Action: Sendable>: InboxReceiver {
    private let node: QueueBound<ActionNode<Action>>

    private init(_ node: QueueBound<ActionNode<Action>>) {
        self.node = node
    }

    deinit {
        if node.depth > 0 {
            node.link.letGoOfAcceptedAction()
        }
    }

    /// What an action a weak route sends to `node` waits in the inbox with, or `nil` when the node is
    /// released (no store or child holds it): the weak route then drops the action.
    static func receiver(for node: QueueBound<ActionNode<Action>>) -> AcceptedAction? {
        guard node.depth == 0 || node.link.keepForAcceptedAction() else { return nil }
        return AcceptedAction(node)
    }

    /// Hands the action to the node, which `self`, held by the entry, keeps alive for the call.
    func handle(_ action: consuming InboxAction, entry: EntryContext, in turn: borrowing DrainTurn) -> ProcessOutcome {
        node.inDrain(turn, passing: action) { $0.handle($1, entry: entry) }
    }
}
