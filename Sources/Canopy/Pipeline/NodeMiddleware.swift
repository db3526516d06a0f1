/// The middleware attached to one node, ready for the engine's middleware stage: the chain with its
/// environment, behind the node's action type only.
///
/// A class whose one method the subclass that knows the state type, ``MiddlewareChain``, overrides,
/// rather than a stored closure: the engine calls it through the class's table, without loading a closure context and going
/// through a partial application.
class NodeMiddleware<Action>: @unchecked Sendable {
    // Safety: it has no stored properties; its subclass is `Sendable` on its own terms.

    /// Runs the chain from the middleware at `startIndex` on; the action is replaced by the one the
    /// chain forwards.
    func run(_ action: inout Action, _ startIndex: Int) -> MiddlewareResult {
        preconditionFailure("Internal inconsistency: \(type(of: self)) does not run a chain")
    }

    @inline(__always)
    final func callAsFunction(_ action: inout Action, _ startIndex: Int) -> MiddlewareResult {
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
