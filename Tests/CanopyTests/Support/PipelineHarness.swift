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
    let environment: MiddlewareEnvironment<Action>
    let chain: MiddlewareChain<State, Action>
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
        let delivered = self.delivered
        environment = MiddlewareEnvironment(
            queue: queue,
            scheduler: scheduler,
            tasks: tasks,
            diagnostics: diagnostics,
            dispatch: { action, startIndex in dispatched.record(Dispatched(action: action, startIndex: startIndex)) },
            dispatchIfCurrent: { action, run in delivered.withLock { $0.append((action, run)) } }
        )
        chain = MiddlewareChain(middlewares: middlewares, resolvers: resolvers)
    }

    /// Runs the chain for `action` on the queue, as the drain does.
    func run(
        _ action: Action,
        state: State,
        target: StoreID = .root,
        startingAt startIndex: Int = 0
    ) -> MiddlewareChain<State, Action>.Outcome {
        queue.sync {
            chain.run(action, state: state, target: target, environment: environment, startingAt: startIndex)
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

extension MiddlewareChain.Outcome {
    /// A comparable account of the outcome: `forward(…)`, `blocked(name)` or `failed(error)`.
    var summary: String {
        switch self {
        case .forward(let action): "forward(\(action))"
        case .blocked(let middleware): "blocked(\(middleware))"
        case .failed(let error): "failed(\(error))"
        }
    }
}
