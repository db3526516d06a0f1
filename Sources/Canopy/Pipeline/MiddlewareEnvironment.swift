import Dispatch

/// What the engine lends a ``MiddlewareChain`` for the actions sent to one node: the node's id, the way
/// to queue follow-up actions to it, the tree's clock and queue, its task registry and its diagnostics.
///
/// The engine makes one per node and passes it with every action, so running the chain allocates
/// nothing for it.
final class MiddlewareEnvironment<Action>: Sendable {
    /// The node the actions are sent to (the middleware's ``MiddlewareContext/target``).
    /// The node the action being handled was sent to.
    var target: StoreID {
        currentTarget()
    }

    private let currentTarget: @Sendable () -> StoreID

    /// The tree's serial queue, where the chain and timers of rate limits run.
    let queue: DispatchQueue

    /// The tree's clock.
    let scheduler: any DelayScheduler

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
        queue: DispatchQueue,
        scheduler: any DelayScheduler,
        tasks: TaskRegistry,
        diagnostics: (any StoreDiagnostics)?,
        dispatch: @escaping @Sendable (_ action: Action, _ startIndex: Int) -> Void,
        dispatchIfCurrent: @escaping @Sendable (_ action: Action, _ run: EffectRun) -> Void
    ) {
        self.currentTarget = currentTarget
        self.queue = queue
        self.scheduler = scheduler
        self.tasks = tasks
        self.diagnostics = diagnostics
        self.dispatch = dispatch
        self.dispatchIfCurrent = dispatchIfCurrent
    }
}
