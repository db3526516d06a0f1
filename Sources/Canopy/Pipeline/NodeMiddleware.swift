/// The middleware attached to one node, ready for the engine's middleware stage: the chain with its
/// environment, behind the node's action type only.
///
/// A class whose one method the subclass that knows the state type, ``MiddlewareChain``, overrides,
/// rather than a stored closure: the engine calls it through the class's table, without loading a closure context and going
/// through a partial application.
// Safety: Sendable by hand: all `let`s, as the note below details.
class NodeMiddleware<Action>: @unchecked Sendable {
    // Safety: its stored properties are `let`s of `Sendable` types, and `soleEnvironment`, an
    // unretained reference to the environment the subclass holds as long as itself; its subclass is
    // `Sendable` on its own terms.

    /// How the engine calls a middleware that only observes (``Middleware/tap``).
    typealias Tap = @Sendable (_ action: borrowing Action, _ environment: MiddlewareEnvironment<Action>) -> Void

    /// Whether every middleware of the chain only observes: the action always reaches the reducers
    /// unchanged, and the engine calls ``observe(_:)`` instead of ``run(_:_:)``.
    final let onlyObserves: Bool

    /// Whether the chain is one middleware that only observes: the engine then calls ``soleTap`` with
    /// ``soleEnvironment`` itself, one call from the engine to the observer.
    final let hasSoleTap: Bool
    /// The tap of the chain's one observer when ``hasSoleTap``; otherwise one that does nothing (not
    /// optional: an optional closure of a generic type is called through reabstraction thunks).
    final let soleTap: Tap
    /// The environment of the node the chain is attached to when ``hasSoleTap``, unretained: the
    /// subclass holds it.
    // Safety: the subclass's `nodeEnvironment`, a `let`, keeps it alive as long as this object.
    final let soleEnvironment: Unmanaged<MiddlewareEnvironment<Action>>?

    // Safety: `environment` must be held by the subclass for its whole life (`MiddlewareChain` holds it).
    init(onlyObserves: Bool, soleTap: Tap?, environment: Unmanaged<MiddlewareEnvironment<Action>>?) {
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
