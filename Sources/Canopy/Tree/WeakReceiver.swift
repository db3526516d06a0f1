/// A weak route to a node, typed by its action only: where the actions a middleware sends on behalf of
/// the action it handles go (the node that action was sent to), without keeping that node alive.
final class WeakReceiver<Action: Sendable>: InboxReceiver {
    private weak let node: ActionNode<Action>?

    init(_ node: ActionNode<Action>) {
        self.node = node
    }

    /// Queues `action` for the node, from any thread; dropped if the node is gone, or, when `run` is
    /// given, if the run is no longer current at its turn.
    func send(_ action: Action, entry: EntryContext, run: EffectRun?) {
        guard let node, !node.isReleased else { return }
        node.push(action, through: self, guardedBy: run, entry: entry)
    }

    var holdsItsNode: Bool { false }

    func receiveAction(at action: UnsafeMutableRawPointer, entry: EntryContext) -> ProcessOutcome {
        // Safety: the inbox hands this route only actions pushed for it, of its `Action` type.
        let action = action.assumingMemoryBound(to: Action.self).move()
        guard let node, !node.isReleased else { return .failed(StoreReleasedError()) }
        return node.tree.process(action, at: node, entry: entry)
    }
}
