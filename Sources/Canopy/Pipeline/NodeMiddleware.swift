/// The middleware attached to one node, as the engine's middleware stage sees it: behind the node's
/// action type only.
///
/// The engine knows a node's action type but not its state type, so the chain (``MiddlewareChain``,
/// which knows both) hands it these entry points, made once when the chain is attached.
final class NodeMiddleware<Action>: Sendable {
    /// Whether every middleware of the chain only observes: the action always reaches the reducers
    /// unchanged, and the engine calls ``observe`` instead of ``run``.
    let onlyObserves: Bool

    /// Whether the chain is one middleware that only observes: the engine then calls ``soleTap`` with
    /// ``soleEnvironment`` itself, one call from the engine to the observer.
    let hasSoleTap: Bool
    /// The tap of the chain's one observer when ``hasSoleTap``; otherwise one that does nothing (not
    /// optional: an optional closure of a generic type is called through reabstraction thunks).
    let soleTap: MiddlewareTap<Action>
    /// The environment of the node the chain is attached to, when ``hasSoleTap``.
    let soleEnvironment: MiddlewareEnvironment<Action>?

    /// The chain's first middleware, when the engine calls it itself for a whole run (``run(_:from:)``);
    /// `nil` when the chain has no environment or every middleware of it only observes.
    let entry: MiddlewareLink<Action>?

    /// After a run from ``entry`` that forwarded nothing or in which a middleware threw: the outcome,
    /// resolved or reported.
    let stopped: @Sendable (_ action: Action) -> MiddlewareResult

    /// Runs the chain from the middleware at the given index on, through the chain (the general path of
    /// ``run(_:from:)``).
    let resume: @Sendable (_ action: inout Action, _ startIndex: Int) -> MiddlewareResult

    /// When ``onlyObserves``: shows the action to every middleware of the chain, which borrow it.
    let observe: @Sendable (_ action: borrowing Action) -> Void

    init(
        onlyObserves: Bool,
        soleTap: MiddlewareTap<Action>?,
        environment: MiddlewareEnvironment<Action>?,
        entry: MiddlewareLink<Action>?,
        stopped: @escaping @Sendable (_ action: Action) -> MiddlewareResult,
        resume: @escaping @Sendable (_ action: inout Action, _ startIndex: Int) -> MiddlewareResult,
        observe: @escaping @Sendable (_ action: borrowing Action) -> Void
    ) {
        self.onlyObserves = onlyObserves
        if let soleTap, let environment {
            self.hasSoleTap = true
            self.soleTap = soleTap
            self.soleEnvironment = environment
        } else {
            self.hasSoleTap = false
            self.soleTap = { _, _ in }
            self.soleEnvironment = nil
        }
        self.entry = entry
        self.stopped = stopped
        self.resume = resume
        self.observe = observe
    }

    /// On the tree's queue, in a tree whose middleware all only observe: runs this chain's taps for
    /// `action`, which goes on unchanged.
    @inline(__always)
    func tap(_ action: borrowing Action) {
        if hasSoleTap {
            // The usual case, the recorder alone: the engine calls it, without a call to the chain.
            // Read with `!` where it is used, a `let` of the middleware is borrowed, not copied.
            soleTap(action, soleEnvironment!)
        } else {
            observe(action)
        }
    }

    /// On the tree's queue: runs the chain from the middleware at `startIndex` on; the action is
    /// replaced by the one the chain forwards.
    ///
    /// A whole run goes straight to the first middleware, compiled in the app's module with its body:
    /// one call from the engine.
    @inline(__always)
    func run(_ action: inout Action, from startIndex: Int) -> MiddlewareResult {
        // Read with `!` where it is used, the `let` is borrowed; bound to a name, it was retained and
        // released on every action.
        guard startIndex == 0, entry != nil else {
            return resume(&action, startIndex)
        }
        return entry!.runChain(&action) ? .forwarded : stopped(action)
    }
}

/// What was attached to a node with `use(_:)` and its siblings, kept to rebuild the chain when more is
/// attached.
final class MiddlewareSetup<State, Action>: Sendable {
    let middlewares: [Middleware<State, Action>]
    let resolvers: [ErrorResolver<State, Action>]

    init(middlewares: [Middleware<State, Action>], resolvers: [ErrorResolver<State, Action>]) {
        self.middlewares = middlewares
        self.resolvers = resolvers
    }
}
