/// Runs a node's middlewares for one action, in order, and says what reaches the reducers.
///
/// The engine calls ``run(_:environment:startingAt:)`` on the tree's queue, once per action,
/// before any reducer. The chain reports ``StoreEvent/blocked(store:action:middleware:)`` and unhandled
/// errors to the environment's diagnostics; the engine reports the rest.
///
/// The per-action path touches only classes, pointers and non-generic values, so in unspecialised code it
/// makes no runtime metadata lookup and no allocation.
// Safety: Sendable by hand for the reason given on the first line of the body (all `let`s).
final class MiddlewareChain<State, Action>: NodeMiddleware<Action>, @unchecked Sendable {
    // Safety: every stored property is a `let` of a `Sendable` type, or of `Unmanaged` of one (`head`).
    private let first: MiddlewareLink<State, Action>?
    // Safety: `first`, unretained; `first` keeps it alive as long as the chain.
    private let head: Unmanaged<MiddlewareLink<State, Action>>?
    // Whether the first middleware and all after it only observe.
    private let firstOnlyTaps: Bool
    private let resolvers: [ErrorResolver<State, Action>]
    private let scratch: ChainScratch<State, Action>

    /// The number of middlewares.
    let count: Int

    /// The environment of the node the chain is attached to, which the engine's calls (``run(_:_:)``)
    /// run in; `nil` for a chain run only with an environment given (``run(_:environment:startingAt:)``).
    private let nodeEnvironment: MiddlewareEnvironment<Action>?
    // Safety: `nodeEnvironment`, unretained; `nodeEnvironment` keeps it alive as long as the chain.
    private let unretainedEnvironment: Unmanaged<MiddlewareEnvironment<Action>>?

    /// Makes each middleware's body for this chain, so stateful middlewares get state of their own.
    ///
    /// - Parameters:
    ///   - middlewares: The node's middlewares, in order.
    ///   - resolvers: The node's error resolvers, in order.
    ///   - environment: The environment of the node the chain is attached to, for ``run(_:_:)``.
    ///   - currentState: Reads the node's state on the queue. The chain calls it only while it runs, when
    ///     a middleware or resolver asks for the state, so it is the state before the action.
    init(
        middlewares: [Middleware<State, Action>],
        resolvers: [ErrorResolver<State, Action>] = [],
        environment: MiddlewareEnvironment<Action>? = nil,
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
        // Safety: `head` is `first` unretained; `first`, a `let`, keeps it alive as long as the chain.
        self.head = link.map { Unmanaged.passUnretained($0) }
        self.firstOnlyTaps = link?.onlyTapsFromHere ?? false
        self.count = middlewares.count
        self.resolvers = resolvers
        self.scratch = scratch
        self.nodeEnvironment = environment
        // Safety: `environment` unretained; `nodeEnvironment`, a `let`, keeps it alive as long as the chain.
        let unretainedEnvironment = environment.map { Unmanaged.passUnretained($0) }
        self.unretainedEnvironment = unretainedEnvironment
        let onlyObserves = firstOnlyTaps && environment != nil
        super.init(
            onlyObserves: onlyObserves,
            soleTap: onlyObserves && link?.following == nil ? link?.tap : nil,
            environment: unretainedEnvironment
        )
    }

    /// On the tree's queue: runs the middlewares from `startIndex` on for `action`.
    ///
    /// - Parameters:
    ///   - action: The action taken from the inbox; on ``MiddlewareResult/forwarded``, the action to reduce.
    ///   - environment: The environment of the node the action was sent to (its id, follow-up dispatch,
    ///     clock, tasks, diagnostics); the caller keeps it alive during the call.
    ///   - startIndex: The first middleware to run; an action released by a middleware resumes after it.
    /// - Returns: Whether to reduce `action`, and if not, why.
    @inline(never)
    func run(
        _ action: inout Action,
        environment: MiddlewareEnvironment<Action>,
        startingAt startIndex: Int = 0
    ) -> MiddlewareResult {
        guard var start = first else { return .forwarded }
        while start.level < startIndex {
            guard let following = start.following else { return .forwarded }
            start = following
        }
        assertOnQueue(environment.queue)
        if start.onlyTapsFromHere {
            // Nothing can change, block or fail the action: no bookkeeping, and it stays where it is.
            Self.tapThrough(&action, from: start, environment: environment)
            return .forwarded
        }
        let token = begin(at: start.level, environment: .passUnretained(environment))
        // Safety: the pointer to `action` is used only during the call, while `action` is not
        // otherwise accessed.
        start.invoke(&action, start, token, true)
        return end(&action)
    }

    /// The engine's call: ``run(_:environment:startingAt:)`` in the environment of the node the chain is
    /// attached to.
    ///
    /// The usual case, the whole chain, is written out here, without a call between the engine and
    /// the first middleware, without a copy of the action and, in unspecialised code, without room for
    /// one; the others take the general path.
    override func run(_ action: inout Action, _ startIndex: Int) -> MiddlewareResult {
        guard startIndex == 0, let head, let unretainedEnvironment else {
            guard let nodeEnvironment else {
                preconditionFailure("Internal inconsistency: a chain made without its node's environment ran")
            }
            return run(&action, environment: nodeEnvironment, startingAt: startIndex)
        }
        // Safety: the first link and the environment are used without retaining them (the compiler
        // would retain and release them around the calls, for each action): the chain holds them, and
        // the caller holds the chain.
        if firstOnlyTaps {
            // Nothing can change, block or fail the action: no bookkeeping, and it stays where it is.
            Self.tapThrough(&action, from: head, environment: unretainedEnvironment)
            return .forwarded
        }
        let token = begin(at: 0, environment: unretainedEnvironment)
        // Safety: as above; the pointer to `action` is used only during the call, while `action` is not
        // otherwise accessed.
        head._withUnsafeGuaranteedRef { $0.invoke(&action, $0, token, true) }
        return end(&action)
    }

    /// The engine's call when every middleware only observes (``NodeMiddleware/onlyObserves``): the
    /// taps, in order, in the environment of the node the chain is attached to, without the run's
    /// bookkeeping; the engine keeps the action where the inbox handed it over.
    override func observe(_ action: Action) {
        // Safety: `onlyObserves` is set only when the chain has a first link and an environment, which
        // the chain holds (unretained here, as in `run(_:_:)`), and the caller holds the chain.
        head!._withUnsafeGuaranteedRef { start in
            unretainedEnvironment!._withUnsafeGuaranteedRef { environment in
                start.tap(action, environment)
                if start.following != nil {
                    // Safety: checked just above; a link's `following` never changes.
                    start.following!.tapThrough(action, environment: environment)
                }
            }
        }
    }

    /// Runs the middlewares from `start` on, which only observe, for the action at `action` (passed by
    /// pointer, so that nobody copies it).
    // Safety: `action` points at the caller's `inout` action, valid for the call (see the body).
    @inline(__always)
    private static func tapThrough(
        _ action: UnsafeMutablePointer<Action>,
        from start: MiddlewareLink<State, Action>,
        environment: MiddlewareEnvironment<Action>
    ) {
        // Safety: `action` is the caller's `inout` action, initialised and not otherwise accessed
        // during the call.
        start.tapThrough(action.pointee, environment: environment)
    }

    /// `tapThrough(_:from:environment:)` for the link and environment the chain holds unretained.
    // Safety: `action` as above; `start` and `environment` are the chain's `head` and
    // `unretainedEnvironment`, which the chain keeps alive (see the body).
    @inline(never)
    private static func tapThrough(
        _ action: UnsafeMutablePointer<Action>,
        from start: Unmanaged<MiddlewareLink<State, Action>>,
        environment: Unmanaged<MiddlewareEnvironment<Action>>
    ) {
        // Safety: the chain holds both, and the caller holds the chain.
        start._withUnsafeGuaranteedRef { start in
            environment._withUnsafeGuaranteedRef { environment in
                tapThrough(action, from: start, environment: environment)
            }
        }
    }

    /// Notes that an action starts at the middleware at `level`; returns the action's token.
    // Safety: `environment` is stored unretained until `end` clears it; every caller of `begin` calls
    // `end` before returning, and keeps the environment alive until then (the chain's, or `run`'s argument).
    @inline(__always)
    private func begin(at level: Int, environment: Unmanaged<MiddlewareEnvironment<Action>>) -> UInt64 {
        let scratch = self.scratch
        precondition(!scratch.isRunning, "Internal inconsistency: a middleware chain was run from inside itself")
        scratch.isRunning = true
        scratch.token &+= 1
        scratch.environment = environment
        scratch.forwardedThrough = level
        return scratch.token
    }

    /// Once the middleware the action started at has returned: the outcome.
    @inline(__always)
    private func end(_ action: inout Action) -> MiddlewareResult {
        let scratch = self.scratch
        // Safety: `begin` set it for this run, and only `end` clears it.
        let environment = scratch.environment!
        scratch.environment = nil
        scratch.isRunning = false
        if scratch.didSettle {
            // Only when no middleware threw; the forwarded action is in `action`.
            scratch.didSettle = false
            return .forwarded
        }
        return stopped(&action, environment: environment)
    }

    /// After a run in which a middleware threw, or none forwarded an action: the outcome, resolved or
    /// reported.
    // Safety: both come from `end`: the caller's `inout` action and the run's environment (see the body).
    @inline(never)
    private func stopped(
        _ pointer: UnsafeMutablePointer<Action>,
        environment: Unmanaged<MiddlewareEnvironment<Action>>
    ) -> MiddlewareResult {
        // Safety: the run's caller keeps the environment alive.
        let environment = environment.takeUnretainedValue()
        // Safety: `pointer` is the caller's `inout` action, initialised, and not otherwise accessed
        // during the call (passed by pointer, so that the caller makes no room for a copy).
        let action = pointer.pointee
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
                state: scratch.currentState(),
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
