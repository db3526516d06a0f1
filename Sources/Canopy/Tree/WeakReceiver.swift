/// A weak route to a node, typed by its action only: where the actions a middleware sends on behalf of
/// the action it handles go (the node that action was sent to), without keeping that node alive.
final class WeakReceiver<Action: Sendable>: Sendable {
    private let node: NodeReference<ActionNode<Action>>

    init(_ node: NodeReference<ActionNode<Action>>) {
        self.node = node
    }

    /// Queues `action` for the node, from any thread, unless the node is released; the action is
    /// then reduced even if the node's stores let go of it meanwhile, unless `run` is given and is no
    /// longer current at its turn.
    func send(_ action: Action, entry: EntryContext, run: EffectRun?) {
        guard let node = node.ifHeld, let accepted = AcceptedAction.receiver(for: node) else { return }
        node.push(action, through: accepted, guardedBy: run, entry: entry)
    }
}
