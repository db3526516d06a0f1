/// What only some nodes need, kept out of every node: one reference to this box, made the first time
/// the node needs one of its fields, instead of one reference per field.
///
/// A child store's node is its largest heap block (W4 counts it per child), and the usual child is a
/// leaf with one observer: no children, no cached state, no list of observers, no middleware. All of
/// those live here, so such a child pays one `nil` reference for them. A node that has any of them pays
/// one load more to reach it.
///
/// The box of each level: the engine's part (``TreeNode``), the part that knows the node's action type
/// (``ActionNodeExtras``), and the part that knows its state type (``NodeExtras``), which is the one made
/// (``TreeNode/makeExtras()``).
class TreeNodeExtras {
    // Not `Sendable`: a node reads and writes its box only on the tree's queue, like its own fields (and
    // a root in its `init`, before it is shared; the box is freed with its node, on any thread).
    // No access to its fields spans a call that could reach them again (a list that grows is moved out
    // first: `TreeNode.addAttachedChild`), so the compiler proves them exclusive without runtime checks.

    /// The node's attached children, in the order they attached.
    // Safety: queue-only (the note above); the walk down reads its slots through a buffer, not an access.
    final var children = ChildList()

    /// The node's after-reduce steps (an ``AfterReduceSteps`` of its own state's type), run in the order
    /// added right after its reducer, once some are added (``TreeNode/addAfterReduceStep(_:flagAt:)``):
    /// in the box, so that the nodes that have none, nearly all, keep no room for them.
    final var afterReduceSteps: AnyObject?
    /// How many steps `afterReduceSteps` runs.
    final var afterReduceStepCount = 0
    /// While there is one step: where its flag lies in the own state, in bytes.
    final var soleStepFlag = 0

    /// File-private: the only box made is a ``NodeExtras`` (the typed accessors rely on it).
    fileprivate init() {}
}

/// The part of a node's box that knows its action type: what the engine's middleware stage reads.
class ActionNodeExtras<Action: Sendable>: TreeNodeExtras {
    /// The node's middleware, once some is attached.
    // Safety: queue-only, as `children`; replaced only by `use`, in a work item, never during an action.
    final var middleware: NodeMiddleware<Action>?

    fileprivate override init() {}
}

/// The box ``StateNode`` makes for ``TreeNode/extras``: the parts the engine reads, and the parts only
/// the node itself uses, which know its state type.
final class NodeExtras<State: Sendable, Action: Sendable>: ActionNodeExtras<Action> {
    // Safety: `cache` is `nil` or memory for one `State`, initialised from the moment it is set
    // (`StateNode.makeCache(_:)`) until `deinit` frees it; the box belongs to one node, and is freed with
    // it, when nothing else can reach either.
    /// The node's cached state, once it has one (see ``StateNode``).
    var cache: UnsafeMutablePointer<State>?

    /// The node's observers once it has had two (the first one is inside the node: ``NodeObservers``).
    // Safety: queue-only, as `children`; read in place (`Unmanaged.borrowing`) while observers run, which
    // cannot replace it (every way back into the tree goes through the inbox).
    var observerList: ObserverStorage<State>?

    /// Where each observer is in `observerList`, once there are more than a few.
    var observerIndex: ObserverIndex?

    /// What `use(_:resolvers:)` attached so far.
    var middlewareSetup: MiddlewareSetup<State, Action>?

    override init() {}

    deinit {
        if let cache {
            // Safety: initialised since it was set (see above), and nothing else can reach it any more.
            cache.deinitialize(count: 1)
            cache.deallocate()
        }
    }
}
