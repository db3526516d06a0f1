/// What only some nodes need, kept out of every node: one reference to this box, made the first time
/// one of its fields is set, instead of one per field.
///
/// A child store's node is its largest heap block (W4 counts it per child), and most nodes never have
/// middleware or more observers than a scan finds quickly.
class ActionNodeExtras<Action: Sendable> {
    // Not `Sendable`: a node reads and writes its box only on the tree's queue, like its own fields.

    /// The node's middleware, once some is attached: read by the engine's middleware stage, which knows
    /// the node's action type only.
    final var middleware: NodeMiddleware<Action>?

    /// File-private: the only box made is a ``NodeExtras`` (`StateNode.stateExtras` relies on it).
    fileprivate init() {}
}

/// The box ``StateNode`` makes for ``ActionNode/extras``: the part the engine reads, and the part only
/// the node itself uses, which knows its state type.
final class NodeExtras<State: Sendable, Action: Sendable>: ActionNodeExtras<Action> {
    /// Where each observer is in the node's list, once there are more than a few.
    var observerIndex: ObserverIndex?

    /// What `use(_:resolvers:)` attached so far.
    var middlewareSetup: MiddlewareSetup<State, Action>?

    override init() {}
}
