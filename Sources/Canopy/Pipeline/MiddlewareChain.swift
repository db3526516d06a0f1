/// Runs a node's middlewares for one action, in order, and says what reaches the reducers.
///
/// The engine calls it on the tree's queue, once per action, before any reducer, through the entry
/// points of ``nodeMiddleware()``. The chain reports ``StoreEvent/blocked(store:action:middleware:)`` and
/// unhandled errors to the environment's diagnostics; the engine reports the rest.
///
/// The per-action path touches only classes and non-generic values, so in unspecialised code it makes
/// no runtime metadata lookup and no allocation.
final class MiddlewareChain<State, Action>: Sendable {
    private let first: MiddlewareLink<Action>?
    // Whether the first middleware and all after it only observe.
    private let firstOnlyTaps: Bool
    private let resolvers: [ErrorResolver<State, Action>]
    private let scratch: ChainScratch<Action>
    // Reads the node's state on the queue, for the resolvers and, through the scratch, the contexts.
    private let stateReader: ChainStateReader<State>

    /// The number of middlewares.
    let count: Int

    /// The environment of the node the chain is attached to, which the engine's calls run in; `nil`
    /// for a chain run only with an environment given (``run(_:environment:startingAt:)``).
    private let nodeEnvironment: MiddlewareEnvironment<Action>?

    /// Whether every middleware only observes and the chain has its node's environment: the engine
    /// then calls ``observe(_:)`` instead of running the chain.
    let onlyObserves: Bool

    /// Makes each middleware's body for this chain, so stateful middlewares get state of their own.
    ///
    /// - Parameters:
    ///   - middlewares: The node's middlewares, in order.
    ///   - resolvers: The node's error resolvers, in order.
    ///   - environment: The environment of the node the chain is attached to, for the engine's calls.
    ///   - currentState: Reads the node's state on the queue. The chain calls it only while it runs, when
    ///     a middleware or resolver asks for the state, so it is the state before the action.
    init(
        middlewares: [Middleware<State, Action>],
        resolvers: [ErrorResolver<State, Action>] = [],
        environment: MiddlewareEnvironment<Action>? = nil,
        currentState: @escaping @Sendable () -> State
    ) {
        let stateReader = ChainStateReader(currentState)
        let scratch = ChainScratch<Action>(stateReader: stateReader)
        var link: MiddlewareLink<Action>?
        for (level, middleware) in middlewares.enumerated().reversed() {
            link = MiddlewareLink(
                name: middleware.name,
                level: level,
                invocation: middleware.makeInvocation(),
                tap: middleware.tap,
                observes: middleware.observes,
                following: link,
                scratch: scratch
            )
        }
        self.first = link
        self.firstOnlyTaps = link?.onlyTapsFromHere ?? false
        self.count = middlewares.count
        self.resolvers = resolvers
        self.scratch = scratch
        self.stateReader = stateReader
        self.nodeEnvironment = environment
        self.onlyObserves = firstOnlyTaps && environment != nil
    }

    /// The engine's entry points into this chain, in the environment of the node it is attached to.
    func nodeMiddleware() -> NodeMiddleware<Action> {
        var entry: MiddlewareLink<Action>?
        if let first, let nodeEnvironment, !first.onlyTapsFromHere {
            // The usual call, the whole chain: the engine calls the first middleware itself, which begins
            // and ends the run (`Middleware.invocation(_:)`). Every run of a node's chain is in the
            // node's environment, so it is made the run's once.
            scratch.use(nodeEnvironment)
            entry = first
        }
        return NodeMiddleware(
            onlyObserves: onlyObserves,
            soleTap: onlyObserves && first?.following == nil ? first?.tap : nil,
            environment: nodeEnvironment,
            entry: entry,
            stopped: { [self] action in stopped(action) },
            resume: { [self] action, startIndex in run(&action, startIndex) },
            observe: { [self] action in observe(action) }
        )
    }

    /// On the tree's queue: runs the middlewares from `startIndex` on for `action`.
    ///
    /// - Parameters:
    ///   - action: The action taken from the inbox; on ``MiddlewareResult/forwarded``, the action to reduce.
    ///   - environment: The environment of the node the action was sent to (its id, follow-up dispatch,
    ///     clock, tasks, diagnostics).
    ///   - startIndex: The first middleware to run; an action released by a middleware resumes after it.
    /// - Returns: Whether to reduce `action`, and if not, why.
    @inline(never)
    func run(
        _ action: inout Action,
        environment: MiddlewareEnvironment<Action>,
        startingAt startIndex: Int = 0
    ) -> MiddlewareResult {
        precondition(
            nodeEnvironment == nil || nodeEnvironment === environment,
            "Internal inconsistency: a node's middleware chain ran in another environment"
        )
        guard var start = first else { return .forwarded }
        while start.level < startIndex {
            guard let following = start.following else { return .forwarded }
            start = following
        }
        assertOnQueue(environment.queue)
        return run(&action, from: start, environment: environment)
    }

    /// The engine's call for what it does not start at the first middleware itself (an action resumed
    /// after a middleware, or a chain whose first middleware only observes):
    /// ``run(_:environment:startingAt:)`` in the environment of the node the chain is attached to.
    func run(_ action: inout Action, _ startIndex: Int) -> MiddlewareResult {
        guard let nodeEnvironment else {
            preconditionFailure("Internal inconsistency: a chain made without its node's environment ran")
        }
        return run(&action, environment: nodeEnvironment, startingAt: startIndex)
    }

    /// Runs the middlewares from `start` on for `action`, in `environment`.
    @inline(__always)
    private func run(
        _ action: inout Action,
        from start: MiddlewareLink<Action>,
        environment: MiddlewareEnvironment<Action>
    ) -> MiddlewareResult {
        if start.onlyTapsFromHere {
            // Nothing can change, block or fail the action: no bookkeeping, and it stays where it is.
            start.tapThrough(action, environment: environment)
            return .forwarded
        }
        scratch.use(environment)
        // The middleware begins and ends the run itself (`Middleware.invocation(_:)`).
        return start.runChain(&action) ? .forwarded : stopped(action)
    }

    /// The engine's call when every middleware only observes (``onlyObserves``): the taps, in order, in
    /// the environment of the node the chain is attached to, without the run's bookkeeping; the engine
    /// keeps the action where the inbox handed it over.
    func observe(_ action: borrowing Action) {
        precondition(onlyObserves, "Internal inconsistency: a chain that does not only observe was asked to")
        // `onlyObserves` says both are set; read with `!` where they are used, they are borrowed, as in
        // `run(_:_:)`.
        first!.tapThrough(action, environment: nodeEnvironment!)
    }

    /// After a run in which a middleware threw, or none forwarded an action: the outcome, resolved or
    /// reported.
    @inline(never)
    func stopped(_ action: Action) -> MiddlewareResult {
        guard let environment = scratch.environment else {
            preconditionFailure("Internal inconsistency: a middleware chain ended without its environment")
        }
        if scratch.didFail, let failure = scratch.failure {
            // A throw wins over a `next` made before it: the forwarded action is dropped.
            scratch.failure = nil
            scratch.didFail = false
            scratch.discardForwarded()
            let name = link(at: scratch.failureLevel).name
            return .failed(resolve(failure, from: name, action, environment))
        }
        let blocker = link(at: scratch.forwardedThrough).name
        environment.diagnostics?.record(
            .blocked(store: environment.target, action: String(describing: action), middleware: blocker)
        )
        return .blocked(middleware: blocker)
    }

    private func link(at level: Int) -> MiddlewareLink<Action> {
        var link = first!
        while link.level < level {
            link = link.following!
        }
        return link
    }

    /// Hands `error` to the resolvers in order; reports it to diagnostics if none resolves it.
    ///
    /// - Returns: The error for the dispatch's outcome: the last one a resolver forwarded, or the one
    ///   the middleware threw when none forwarded another.
    private func resolve(
        _ error: any Error,
        from middleware: String,
        _ action: Action,
        _ environment: MiddlewareEnvironment<Action>
    ) -> any Error {
        var current = error
        if !resolvers.isEmpty {
            let context = ErrorResolverContext(
                action: action,
                state: stateReader.read(),
                target: environment.target,
                middleware: middleware,
                environment: environment
            )
            for resolver in resolvers {
                switch resolver.resolve(current, context) {
                case .resolved:
                    return current
                case .forward(let forwarded):
                    current = forwarded
                }
            }
        }
        environment.diagnostics?.record(
            .error(store: environment.target, action: String(describing: action), source: middleware, error: current)
        )
        return current
    }
}
