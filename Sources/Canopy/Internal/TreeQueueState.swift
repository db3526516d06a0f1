/// What a store tree's queue changes as it works: the engine's flags, the walks' scratch space, the nodes
/// waiting to leave the tree. ``StoreTree`` holds it as a `let`, so the tree itself is `Sendable` by the
/// compiler's own check; this object is the one place its sharing rests on confinement to the queue.
///
/// Every `var` is read and written only on the tree's queue (`attachments` also in the tree's `deinit`,
/// when nothing else holds the tree; `rootReference` is the exception noted on it): by the drain and
/// what it calls, by work items it runs, and by nodes' queue-only members (`TreeNode.listenersChanged`,
/// `StateNode.use`). The drain's turn checks the queue in every build (`StoreTree.scheduleDrain()`), the
/// accessors in debug builds (`StoreTree.assertOnQueue()`). `StoreTree.process` is never entered again
/// while it runs: reducers, observers and middleware cannot reach it synchronously, because every way to
/// dispatch or subscribe goes through the inbox. No access to a `var` spans a call to other code (what
/// the walks use is moved out first: `StoreTree.takeWalk()`, `StoreTree.take(_:)`), so the compiler
/// proves the accesses exclusive, with no runtime check and none switched off.
// Safety: shared across threads though the compiler cannot check it, for the reasons above.
final class TreeQueueState: @unchecked Sendable {
    /// Whether some node of the tree has middleware (then `process` runs the middleware stage). Written by
    /// `StoreTree.middlewareAttached(onlyObserves:)`, which asserts the queue, read by `process`.
    var hasMiddleware = false

    /// Whether some node of the tree has middleware that does more than observe, that is, that may
    /// change, block or fail an action, or let it go later (then `process` runs the whole stage).
    var someMiddlewareActs = false

    /// Counts actions by kind and follows causes, when cycle detection is on. Used only by
    /// `StoreTree.recordCause`, during `process`.
    var cycleDetector: CycleDetector?

    /// While an action is processed with cycle detection on: the kinds of its causes, then its own.
    /// Read by middleware on the queue, and by `StoreTree.causesOfDispatchNow` only when the drain's
    /// thread asks, that is on the queue.
    var currentCauses: [String]?

    /// While an action goes through the middleware stage: the identity of the node it was sent to, which
    /// the caller of `process` holds meanwhile. Set for the stage (`tap`, `middlewareStage`) and back to
    /// `nil` right after; no reference count per action, which the action recorder would pay.
    var currentTarget: ObjectIdentifier?

    /// While an action to a node below the root goes through the middleware stage: that node, held, so
    /// that a middleware can ask for its ID or a route to it (`StoreTree.currentTargetNode`). An action
    /// to the root holds nothing here: the root is reached through `rootReference`.
    var heldTarget: TreeNode?

    /// The scratch space of the walks up and down (`StoreTree.Walk`), kept between actions so its storage
    /// is reused. Each action moves it out (`StoreTree.takeWalk()`) and back: the walks use it as a local
    /// value, whose accesses the compiler checks statically, and every access to this field is a plain
    /// move. `nil` only while an action is being processed: were `process` entered again, `takeWalk()`
    /// would trap on the `nil`.
    var spareWalk: StoreTree.Walk? = StoreTree.Walk()

    /// Whether an action is being reduced: a nested call traps in debug builds.
    var isProcessing = false

    #if DEBUG
    /// Whether the walk down is running: no node attaches meanwhile (attaching happens in work items,
    /// between actions), so a walk sees the tree it started with. Checked in debug builds only.
    var isWalkingDown = false
    #endif

    /// Whether the root has listeners, that is whether anything in the tree does: kept by the root
    /// (``TreeNode/listenersChanged()``) so that `process` need not reach the root for each action.
    var isListenedTo = false

    /// Nodes that nothing keeps any more, held until they are taken out of the tree after the current
    /// inbox entry (`StoreTree.settleDrops()`).
    var pendingDrops: [TreeNode] = []

    /// The root node, `unowned`: the root holds the tree, and every other node holds the root (through
    /// its ancestors), so the root is alive whenever a node asks for it (were it not, reading it would
    /// trap). Unlike the rest, set once, by the root's `init`, before the tree is shared; then only read,
    /// from any thread.
    unowned var rootReference: TreeNode?

    /// What other modules of the package keep per tree, by type (`StoreTree.attachment(_:)`).
    var attachments: [ObjectIdentifier: any TreeAttachment] = [:]

    init(cycleDetector: CycleDetector?) {
        self.cycleDetector = cycleDetector
    }
}
