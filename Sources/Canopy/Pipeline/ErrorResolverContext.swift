/// What an ``ErrorResolver`` knows about a failure, and how it sends recovery actions.
///
/// ```swift
/// ErrorResolver<Board, BoardAction>("report") { error, context in
///     context.dispatch(.showError("\(context.middleware) failed on \(context.action): \(error)"))
///     return .resolved
/// }
/// ```
public struct ErrorResolverContext<State, Action> {
    /// The action the middleware was handling when it threw.
    public let action: Action

    /// The state before that action (no reducer ran for it).
    public let state: State

    /// The node the action was sent to.
    public let target: StoreID

    /// The name of the middleware that threw.
    public let middleware: String

    let environment: MiddlewareEnvironment<Action>

    /// Sends a recovery action to the node the failed action was sent to, queued after the actions already
    /// waiting (FIFO). It goes through the middleware chain like any dispatched action.
    ///
    /// - Parameter action: The action to send.
    public func dispatch(_ action: Action) {
        environment.send(action)
    }
}

extension ErrorResolverContext: Sendable where State: Sendable, Action: Sendable {}
