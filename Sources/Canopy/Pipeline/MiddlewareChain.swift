/// Runs a node's middlewares for one action, in order, and says what reaches the reducers.
///
/// The engine calls ``run(_:environment:startingAt:)`` on the tree's queue, once per action,
/// before any reducer. The chain reports ``StoreEvent/blocked(store:action:middleware:)`` and unhandled
/// errors to the environment's diagnostics; the engine reports the rest.
///
/// The per-action path touches only classes, pointers and non-generic values, so in unspecialised code it
/// makes no runtime metadata lookup and no allocation.
final class MiddlewareChain<State, Action>: Sendable {
    private let first: MiddlewareLink<State, Action>?
    private let resolvers: [ErrorResolver<State, Action>]
    private let scratch: ChainScratch<State, Action>

    /// The number of middlewares.
    let count: Int

    /// Makes each middleware's body for this chain, so stateful middlewares get state of their own.
    ///
    /// - Parameters:
    ///   - middlewares: The node's middlewares, in order.
    ///   - resolvers: The node's error resolvers, in order.
    ///   - currentState: Reads the node's state on the queue. The chain calls it only while it runs, when
    ///     a middleware or resolver asks for the state, so it is the state before the action.
    init(
        middlewares: [Middleware<State, Action>],
        resolvers: [ErrorResolver<State, Action>] = [],
        currentState: @escaping @Sendable () -> State
    ) {
        let scratch = ChainScratch<State, Action>(currentState: currentState)
        var link: MiddlewareLink<State, Action>?
        for (level, middleware) in middlewares.enumerated().reversed() {
            link = MiddlewareLink(
                name: middleware.name,
                level: level,
                invoke: middleware.makeInvoke(),
                tap: middleware.tap,
                observes: middleware.observes,
                following: link,
                scratch: scratch
            )
        }
        self.first = link
        self.count = middlewares.count
        self.resolvers = resolvers
        self.scratch = scratch
    }

    /// On the tree's queue: runs the middlewares from `startIndex` on for `action`.
    ///
    /// - Parameters:
    ///   - action: The action taken from the inbox; on ``MiddlewareResult/forwarded``, the action to reduce.
    ///   - environment: The environment of the node the action was sent to (its id, follow-up dispatch,
    ///     clock, tasks, diagnostics); the caller keeps it alive during the call.
    ///   - startIndex: The first middleware to run; an action released by a middleware resumes after it.
    /// - Returns: Whether to reduce `action`, and if not, why.
    func run(
        _ action: inout Action,
        environment: MiddlewareEnvironment<Action>,
        startingAt startIndex: Int = 0
    ) -> MiddlewareResult {
        guard first != nil else { return .forwarded }
        // Safety: the first link is used without retaining it (the compiler would retain and release it
        // around the call, for each action): the chain holds it, and the caller holds the chain. Read
        // through a temporary, so that the strong reference ends with the statement.
        let first = Unmanaged.passUnretained(self.first.unsafelyUnwrapped)
        guard startIndex == 0 else {
            var start = first.takeUnretainedValue()
            while start.level < startIndex {
                guard let following = start.following else { return .forwarded }
                start = following
            }
            return run(&action, from: start, environment: environment)
        }
        return first._withUnsafeGuaranteedRef { run(&action, from: $0, environment: environment) }
    }

    /// `run` from `start` on.
    ///
    /// The usual path (the middleware forwards an action) makes no copy of the action and, in
    /// unspecialised code, no room for one: what observes, fails or blocks is handled out of line.
    @inline(__always)
    private func run(
        _ action: inout Action,
        from start: MiddlewareLink<State, Action>,
        environment: MiddlewareEnvironment<Action>
    ) -> MiddlewareResult {
        assertOnQueue(environment.queue)
        if start.onlyTapsFromHere {
            // Nothing can change, block or fail the action: no bookkeeping, and it stays where it is.
            Self.tapThrough(&action, from: start, environment: environment)
            return .forwarded
        }
        let scratch = self.scratch
        precondition(!scratch.isRunning, "Internal inconsistency: a middleware chain was run from inside itself")
        scratch.isRunning = true
        scratch.token &+= 1
        scratch.environment = environment
        scratch.forwardedThrough = start.level
        // The middleware reads the action in place, and moves the one the chain forwards into it.
        // Safety: the pointer to `action` is used only during the call, while `action` is not
        // otherwise accessed.
        start.invoke(&action, start, scratch.token, true)
        scratch.environment = nil
        scratch.isRunning = false
        if scratch.didSettle {
            // Only when no middleware threw.
            scratch.didSettle = false
            return .forwarded
        }
        return stopped(action, environment: environment)
    }

    /// Runs the middlewares from `start` on, which only observe, for the action at `action`.
    @inline(never)
    private static func tapThrough(
        _ action: UnsafeMutablePointer<Action>,
        from start: MiddlewareLink<State, Action>,
        environment: MiddlewareEnvironment<Action>
    ) {
        // Safety: `action` is the caller's `inout` action, initialised and not otherwise accessed
        // during the call.
        start.tapThrough(action.pointee, environment: environment)
    }

    /// After a run in which a middleware threw, or none forwarded an action: the outcome, resolved or
    /// reported.
    @inline(never)
    private func stopped(_ action: Action, environment: MiddlewareEnvironment<Action>) -> MiddlewareResult {
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

    private func link(at level: Int) -> MiddlewareLink<State, Action> {
        var link = first!
        while link.level < level {
            link = link.following!
        }
        return link
    }

    /// Hands `error` to the resolvers in order; reports it to diagnostics if none resolves it.
    ///
    /// - Returns: The error the middleware threw, for the dispatch's outcome.
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
                state: scratch.currentState(),
                target: environment.target,
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
            .error(store: environment.target, action: String(describing: action), source: middleware, error: current)
        )
        return error
    }
}
