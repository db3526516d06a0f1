import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the engine lends a ``MiddlewareChain`` for the actions sent to one node: the node's id, the way
/// to queue follow-up actions to it, the tree's clock and queue, its task registry and its diagnostics.
///
/// The engine makes one per node and passes it with every action, so running the chain allocates
/// nothing for it.
@usableFromInline
final class MiddlewareEnvironment<Action>: Sendable {
    /// The node the action being handled was sent to (the middleware's ``MiddlewareContext/target``).
    var target: StoreID {
        currentTargetID()
    }

    /// ``target``'s work, written out in ``target`` and in ``recordingStamp()``.
    @inline(__always)
    private func currentTargetID() -> StoreID {
        if let owner, owner.tree.isCurrentTarget(owner.node) {
            // The usual case: an action sent to the node this chain belongs to. Its ID is kept, so that
            // none is built per action (an action recorder asks for each); the root's is made afresh,
            // since an empty array literal costs no retain, and the shared empty array's retain goes
            // through the runtime's slow path (about 20 instructions).
            return owner.isRoot ? StoreID(knownValidPath: []) : owner.id
        }
        return currentTarget()
    }

    private let currentTarget: @Sendable () -> StoreID

    /// In a store: the tree, the node this chain belongs to and that node's ID.
    private let owner: Owner?

    /// The node a chain belongs to, in its tree.
    struct Owner: Sendable {
        let tree: StoreTree
        /// The node's identity, compared with the tree's current target. `target` is read only while
        /// this environment's chain runs (a context checks that it is current), when the node, which holds
        /// the chain, is alive: so no other node can have its identity.
        let node: ObjectIdentifier
        let id: StoreID
        let isRoot: Bool

        init(tree: StoreTree, node: TreeNode, id: StoreID) {
            self.tree = tree
            self.node = ObjectIdentifier(node)
            self.id = id
            self.isRoot = id.depth == 0
        }
    }

    // In a store: on the queue, during the middleware stage, the node the action being handled was sent
    // to (or, outside the stage, the node this chain belongs to). `nil` outside a store (tests of the
    // chain alone), where `dispatch` and `dispatchIfCurrent` do the routing.
    private let route: (@Sendable () -> Route)?

    /// Sends an action to a node with an entry context, guarded by a run when one is given.
    typealias Route = @Sendable (_ action: Action, _ entry: EntryContext, _ run: EffectRun?) -> Void
    /// The depth of the node this chain belongs to: a resumed action skips the chains above it.
    private let ownerDepth: Int
    /// On the queue: the causes of the action being handled, for cycle detection.
    private let causes: (@Sendable () -> [String]?)?

    /// The tree's serial queue, where the chain and timers of rate limits run.
    let queue: DispatchQueue

    /// The tree's clock.
    let scheduler: any DelayScheduler

    /// Whether `scheduler` is the production clock, which `now` then reads directly.
    private let readsDispatchClock: Bool

    /// The time on the tree's clock (``DelayScheduler/now``).
    var now: TimeInterval {
        readsDispatchClock ? DispatchDelayScheduler.uptime() : scheduler.now
    }

    /// ``target`` and ``now``, for the action recorder's middleware, compiled in the app's module: one
    /// call for both.
    @usableFromInline
    func recordingStamp() -> (store: StoreID, time: Double) {
        (currentTargetID(), readsDispatchClock ? DispatchDelayScheduler.uptime() : scheduler.now)
    }

    /// The tree's work by id.
    let tasks: TaskRegistry

    /// The tree's diagnostics, if any.
    let diagnostics: (any StoreDiagnostics)?

    // From any thread: queues `action` for the node, after the actions already queued (FIFO). When it is
    // taken, the node's chain runs it from the middleware at `startIndex` on (0: the whole chain; the
    // chain's count: no middleware at all).
    let dispatch: @Sendable (_ action: Action, _ startIndex: Int) -> Void

    // From any thread: like `dispatch(action, 0)`, but the action is dropped when it is taken, right before
    // the middleware and reducers, if `run` is no longer current.
    let dispatchIfCurrent: @Sendable (_ action: Action, _ run: EffectRun) -> Void

    convenience init(
        target: StoreID,
        queue: DispatchQueue,
        scheduler: any DelayScheduler,
        tasks: TaskRegistry,
        diagnostics: (any StoreDiagnostics)?,
        dispatch: @escaping @Sendable (_ action: Action, _ startIndex: Int) -> Void,
        dispatchIfCurrent: @escaping @Sendable (_ action: Action, _ run: EffectRun) -> Void
    ) {
        self.init(
            currentTarget: { target },
            queue: queue,
            scheduler: scheduler,
            tasks: tasks,
            diagnostics: diagnostics,
            dispatch: dispatch,
            dispatchIfCurrent: dispatchIfCurrent
        )
    }

    /// An environment whose target is read on the queue while an action is handled.
    init(
        currentTarget: @escaping @Sendable () -> StoreID,
        owner: Owner? = nil,
        route: (@Sendable () -> Route)? = nil,
        ownerDepth: Int = 0,
        causes: (@Sendable () -> [String]?)? = nil,
        queue: DispatchQueue,
        scheduler: any DelayScheduler,
        tasks: TaskRegistry,
        diagnostics: (any StoreDiagnostics)?,
        dispatch: @escaping @Sendable (_ action: Action, _ startIndex: Int) -> Void,
        dispatchIfCurrent: @escaping @Sendable (_ action: Action, _ run: EffectRun) -> Void
    ) {
        self.currentTarget = currentTarget
        self.owner = owner
        self.route = route
        self.ownerDepth = ownerDepth
        self.causes = causes
        self.queue = queue
        self.scheduler = scheduler
        self.readsDispatchClock = scheduler is DispatchDelayScheduler
        self.tasks = tasks
        self.diagnostics = diagnostics
        self.dispatch = dispatch
        self.dispatchIfCurrent = dispatchIfCurrent
    }

    /// On the queue, from a middleware or resolver: sends `action` to the node the handled action was
    /// sent to, caused by it, through the whole pipeline.
    func send(_ action: Action) {
        guard let route else { return dispatch(action, 0) }
        route()(action, EntryContext(causes: causes?()), nil)
    }

    /// On the queue: a way to send actions later, from any thread, to the node the handled action was
    /// sent to, as caused by it.
    func sender() -> @Sendable (Action) -> Void {
        guard let route else { return { action in self.dispatch(action, 0) } }
        let send = route()
        let entry = EntryContext(causes: causes?())
        return { action in send(action, entry, nil) }
    }

    /// On the queue: a delivery for results of work started now, to the node the handled action was
    /// sent to, as caused by it, dropped once `run` is no longer current.
    func deliverer() -> @Sendable (Action, EffectRun) -> Void {
        guard let route else { return dispatchIfCurrent }
        let send = route()
        let entry = EntryContext(causes: causes?())
        return { action, run in send(action, entry, run) }
    }

    /// On the queue: a way to let `action` go on later from the middleware at `startIndex` of this chain,
    /// to the node the handled action was sent to; the chains above this one, which already ran, are
    /// skipped.
    func resumption(startIndex: Int) -> @Sendable (Action) -> Void {
        guard let route else { return { action in self.dispatch(action, startIndex) } }
        let send = route()
        let entry = EntryContext(middlewareStart: startIndex, resumeDepth: ownerDepth)
        return { action in send(action, entry, nil) }
    }
}
