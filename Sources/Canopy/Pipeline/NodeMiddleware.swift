/// The middleware attached to one node, ready for the engine's middleware stage: the chain with its
/// environment, behind the node's action type only.
final class NodeMiddleware<Action>: Sendable {
    /// Runs the chain from the middleware at the given index on; the action is replaced by the one the
    /// chain forwards.
    let run: @Sendable (inout Action, _ startIndex: Int) -> MiddlewareResult

    init(run: @escaping @Sendable (inout Action, _ startIndex: Int) -> MiddlewareResult) {
        self.run = run
    }

    /// Calls `run`, borrowed from this object: calling the stored closure through the property would
    /// retain and release its context for each action.
    @inline(__always)
    func callAsFunction(_ action: inout Action, _ startIndex: Int) -> MiddlewareResult {
        run(&action, startIndex)
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
