import Dispatch

@testable import Canopy

/// Plays the engine's part around a ``MiddlewareChain``: a queue, a manual clock, a task registry, and
/// recorders for what the chain dispatches and reports, so the pipeline can be tested without stores.
final class PipelineHarness<State: Sendable, Action: Sendable>: Sendable {
    /// A follow-up the chain asked for, with the middleware it enters the chain at.
    struct Dispatched: Sendable {
        let action: Action
        let startIndex: Int
    }

    let queue = DispatchQueue(label: "pipeline-harness")
    let scheduler = ManualScheduler()
    let diagnostics = DiagnosticsRecorder()
    let dispatched = StateRecorder<Dispatched>()
    let tasks: TaskRegistry
    let chain: MiddlewareChain<State, Action>
    /// The engine keeps one environment per node; the harness makes one per target asked for.
    let makeEnvironment: @Sendable (StoreID) -> MiddlewareEnvironment<Action>
    // The node's state, as the engine's storage would hold it while the chain runs.
    private let currentState = LockedValue<State?>(nil)
    private let delivered = LockedValue<[(action: Action, run: EffectRun)]>([])

    init(
        _ middlewares: [Middleware<State, Action>],
        resolvers: [ErrorResolver<State, Action>] = [],
        withDiagnostics: Bool = true
    ) {
        let diagnostics = withDiagnostics ? self.diagnostics : nil
        let tasks = TaskRegistry(queue: queue, scheduler: scheduler, diagnostics: diagnostics)
        self.tasks = tasks
        let dispatched = self.dispatched
        let (queue, scheduler) = (self.queue, self.scheduler)
        let delivered = self.delivered
        self.makeEnvironment = { target in
            MiddlewareEnvironment(
                target: target,
                queue: queue,
                scheduler: scheduler,
                tasks: tasks,
                diagnostics: diagnostics,
                dispatch: { action, startIndex in dispatched.record(Dispatched(action: action, startIndex: startIndex))
                },
                dispatchIfCurrent: { action, run in delivered.withLock { $0.append((action, run)) } }
            )
        }
        let currentState = self.currentState
        chain = MiddlewareChain(middlewares: middlewares, resolvers: resolvers) {
            currentState.withLock { $0! }
        }
    }

    /// Runs the chain for `action` on the queue, as the drain does.
    func run(
        _ action: Action,
        state: State,
        target: StoreID = .root,
        startingAt startIndex: Int = 0
    ) -> Outcome {
        queue.sync {
            currentState.withLock { $0 = state }
            var action = action
            let result = chain.run(
                &action,
                environment: makeEnvironment(target),
                startingAt: startIndex
            )
            return Outcome(result: result, action: action)
        }
    }

    /// What the chain returned, with the action it left in its `inout` argument.
    struct Outcome {
        let result: MiddlewareResult
        let action: Action

        /// A comparable account: `forward(action)`, `blocked(name)` or `failed(error)`.
        var summary: String {
            switch result {
            case .forwarded: "forward(\(action))"
            case .blocked(let middleware): "blocked(\(middleware))"
            case .failed(let error): "failed(\(error))"
            }
        }
    }

    /// The actions work by id has sent so far that the engine would still reduce now: those whose run is
    /// current at this moment, as the drain checks right before reducing. Clears the list.
    func takeDelivered() -> [Action] {
        queue.sync {
            delivered.exchange([]).filter { $0.run.isCurrent }.map(\.action)
        }
    }

    /// How many actions work by id has sent so far, current or not.
    var deliveredCount: Int {
        delivered.withLock { $0.count }
    }
}

/// Records every diagnostics event.
final class DiagnosticsRecorder: StoreDiagnostics {
    let events = StateRecorder<StoreEvent>()

    func record(_ event: StoreEvent) {
        events.record(event)
    }

    /// The events as text, in order.
    var lines: [String] {
        events.values.map(\.description)
    }
}
