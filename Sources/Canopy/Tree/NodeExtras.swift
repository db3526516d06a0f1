/// What only some nodes need of the engine's: their attached children and their after-reduce steps,
/// in a box made the first time a node needs one of them, instead of one reference per field in every
/// node.
///
/// A child store's node is its largest heap block (W4 counts it per child), and the usual child is a
/// leaf with one observer: no children, no after-reduce steps. Such a child pays one `nil` reference for
/// them; a node that has any of them pays one load more to reach it. What only some nodes need of their
/// own types is in a second box, ``NodeExtras``, which the node keeps typed (``StateNode``).
final class TreeNodeExtras {
    // Not `Sendable`: a node reads and writes its box only on the tree's queue, like its own fields (the
    // box is freed with its node, on any thread). No access to its fields spans a call that could reach
    // them again (a list that grows is moved out first: `TreeNode.addAttachedChild`), so the compiler
    // proves them exclusive without runtime checks.

    /// The node's attached children, in the order they attached.
    // Safety: queue-only (the note above); the walk down reads its slots through a buffer, not an access.
    var children = ChildList()

    /// The node's after-reduce steps (an ``AfterReduceSteps`` of its own state's type), run in the order
    /// added right after its reducer, once some are added (``TreeNode/addAfterReduceStep(_:flagAt:)``):
    /// in the box, so that the nodes that have none, nearly all, keep no room for them.
    var afterReduceSteps: AnyObject?
    /// How many steps `afterReduceSteps` runs.
    var afterReduceStepCount = 0
    /// While there is one step: where its flag lies in the own state, in bytes.
    var soleStepFlag = 0
}

/// What only some nodes need of their own types, kept out of every node: their cached state, their
/// list of observers and its index, and what `use(_:resolvers:)` attached, in a box made the first time
/// a node needs one of them (``StateNode``). The usual child, a leaf with one observer, has none of them: it pays one
/// `nil` reference.
final class NodeExtras<State: Sendable, Action: Sendable> {
    // Not `Sendable`, for the reasons of ``TreeNodeExtras`` (a root also makes its box in its `init`,
    // before it is shared).

    /// The node's cached state, once it has one (see ``StateNode``): an object that owns it, made once and
    /// never replaced.
    var cache: StateCache<State>?

    /// The node's observers once it has had two, or, for a node that keeps none inside itself (the root,
    /// a mapped node), one.
    var observerList: ObserverStorage<State>?

    /// Where each observer is in `observerList`, once there are more than a few.
    var observerIndex: ObserverIndex?

    /// What `use(_:resolvers:)` attached so far.
    var middlewareSetup: MiddlewareSetup<State, Action>?
}
