/// Runs a node's middlewares for one action, in order, and says what reaches the reducers.
///
/// The engine calls ``run(_:state:target:environment:startingAt:)`` on the tree's queue, once per action,
/// before any reducer. The chain reports ``StoreEvent/blocked(store:action:middleware:)`` and unhandled
/// errors to the environment's diagnostics; the engine reports the rest.
final class MiddlewareChain<State, Action>: Sendable {
    /// What became of the action.
    enum Outcome {
        /// The last middleware passed this action on; reduce it.
        case forward(Action)
        /// The named middleware returned without calling `next`.
        case blocked(middleware: String)
        /// A middleware threw this error; the resolvers have run.
        case failed(any Error)
    }

    private let names: [String]
    private let bodies: [Middleware<State, Action>.Body]
    private let resolvers: [ErrorResolver<State, Action>]
    private let scratch = ChainScratch<State, Action>()

    /// Makes each middleware's body for this chain, so stateful middlewares get state of their own.
    init(middlewares: [Middleware<State, Action>], resolvers: [ErrorResolver<State, Action>] = []) {
        self.names = middlewares.map(\.name)
        self.bodies = middlewares.map { $0.makeBody() }
        self.resolvers = resolvers
    }

    /// The number of middlewares.
    var count: Int {
        bodies.count
    }

    /// On the tree's queue: runs the middlewares from `startIndex` on for `action`.
    ///
    /// - Parameters:
    ///   - action: The action taken from the inbox.
    ///   - state: The state of the chain's node before any reducer runs for the action.
    ///   - target: The node the action was sent to.
    ///   - environment: The node's environment (follow-up dispatch, clock, tasks, diagnostics).
    ///   - startIndex: The first middleware to run; an action released by a middleware resumes after it.
    /// - Returns: The action to reduce, or why there is none.
    func run(
        _ action: Action,
        state: State,
        target: StoreID,
        environment: MiddlewareEnvironment<Action>,
        startingAt startIndex: Int = 0
    ) -> Outcome {
        guard startIndex < bodies.count else { return .forward(action) }
        assertOnQueue(environment.queue)
        let scratch = self.scratch
        precondition(!scratch.isRunning, "Internal inconsistency: a middleware chain was run from inside itself")
        scratch.isRunning = true
        scratch.token &+= 1
        scratch.state = state
        scratch.target = target
        scratch.environment = environment
        scratch.forwardedThrough = startIndex
        invoke(startIndex, action, token: scratch.token)

        let forwarded = scratch.forwarded
        let failure = scratch.failure
        let stoppedAt = scratch.forwardedThrough
        scratch.forwarded = nil
        scratch.failure = nil
        scratch.state = nil
        scratch.target = nil
        scratch.environment = nil
        scratch.isRunning = false

        if let failure {
            return .failed(
                resolve(failure.error, from: names[failure.level], action, state, target, environment)
            )
        }
        if let forwarded {
            return .forward(forwarded)
        }
        let blocker = names[stoppedAt]
        environment.diagnostics?.record(
            .blocked(store: target, action: String(describing: action), middleware: blocker)
        )
        return .blocked(middleware: blocker)
    }

    /// Runs the middleware at `level`, recording the first error thrown in the chain.
    private func invoke(_ level: Int, _ action: Action, token: UInt64) {
        scratch.expecting = level
        do {
            try bodies[level](action, MiddlewareContext(chain: self, level: level, token: token))
        } catch {
            if scratch.failure == nil {
                scratch.failure = (error, level)
            }
        }
        scratch.expecting = -1
    }

    /// A middleware's `next`: runs the following middleware, or records the action for the reducers.
    func next(_ action: Action, from context: MiddlewareContext<State, Action>) {
        let scratch = self.scratch
        guard context.token == scratch.token, scratch.isRunning, scratch.expecting == context.level else {
            misusedNext(context)
        }
        let following = context.level + 1
        scratch.forwardedThrough = following
        if following < bodies.count {
            invoke(following, action, token: context.token)
        } else {
            scratch.forwarded = action
            scratch.expecting = -1
        }
    }

    private func misusedNext(_ context: MiddlewareContext<State, Action>) -> Never {
        let name = names[context.level]
        let sameAction = context.token == scratch.token && scratch.isRunning
        if sameAction, scratch.forwardedThrough > context.level {
            preconditionFailure("Middleware \"\(name)\" called next twice for one action")
        }
        preconditionFailure("Middleware \"\(name)\" called next after it returned")
    }

    /// The environment of the action `context` belongs to; traps once that action is done.
    func environment(for context: MiddlewareContext<State, Action>) -> MiddlewareEnvironment<Action> {
        guard context.token == scratch.token, let environment = scratch.environment else {
            expired(context)
        }
        return environment
    }

    /// The state before the action `context` belongs to; traps once that action is done.
    func state(for context: MiddlewareContext<State, Action>) -> State {
        guard context.token == scratch.token, let state = scratch.state else { expired(context) }
        return state
    }

    /// The node the action `context` belongs to was sent to; traps once that action is done.
    func target(for context: MiddlewareContext<State, Action>) -> StoreID {
        guard context.token == scratch.token, let target = scratch.target else { expired(context) }
        return target
    }

    func name(at level: Int) -> String {
        names[level]
    }

    private func expired(_ context: MiddlewareContext<State, Action>) -> Never {
        preconditionFailure("Middleware \"\(names[context.level])\" used its context after it returned")
    }

    /// Hands `error` to the resolvers in order; reports it to diagnostics if none resolves it.
    ///
    /// - Returns: The error the middleware threw, for the dispatch's outcome.
    private func resolve(
        _ error: any Error,
        from middleware: String,
        _ action: Action,
        _ state: State,
        _ target: StoreID,
        _ environment: MiddlewareEnvironment<Action>
    ) -> any Error {
        var current = error
        if !resolvers.isEmpty {
            let context = ErrorResolverContext(
                action: action,
                state: state,
                target: target,
                middleware: middleware,
                environment: environment
            )
            for resolver in resolvers {
                switch resolver.resolve(current, context) {
                case .resolved:
                    return error
                case .forward(let forwarded):
                    current = forwarded
                }
            }
        }
        environment.diagnostics?.record(
            .error(store: target, action: String(describing: action), source: middleware, error: current)
        )
        return error
    }
}
