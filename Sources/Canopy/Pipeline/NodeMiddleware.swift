/// The middleware attached to one node, ready for the engine's middleware stage: the chain with its
/// environment, behind the node's action type only.
///
/// A class whose one method the subclass that knows the state type, ``MiddlewareChain``, overrides,
/// rather than a stored closure: the engine calls it through the class's table, without loading a closure context and going
/// through a partial application.
class NodeMiddleware<Action>: @unchecked Sendable {
    // Safety: its one stored property is a `let` of a `Sendable` type; its subclass is `Sendable` on its
    // own terms.

    /// Whether every middleware of the chain only observes: the action always reaches the reducers
    /// unchanged, and the engine calls ``observe(_:)`` instead of ``run(_:_:)``.
    final let onlyObserves: Bool

    init(onlyObserves: Bool) {
        self.onlyObserves = onlyObserves
    }

    /// When ``onlyObserves``: shows `action` to every middleware of the chain, which borrow it.
    func observe(_ action: Action) {
        preconditionFailure("Internal inconsistency: \(type(of: self)) has no observers")
    }

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
