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

    /// Sends to the node the failed action was sent to; made on the queue, with the context, so that
    /// calling it later from another thread reads nothing of the tree's.
    private let send: @Sendable (Action) -> Void

    init(
        action: Action,
        state: State,
        target: StoreID,
        middleware: String,
        environment: MiddlewareEnvironment<Action>
    ) {
        self.action = action
        self.state = state
        self.target = target
        self.middleware = middleware
        self.send = environment.sender()
    }

    /// Sends a recovery action to the node the failed action was sent to, queued after the actions already
    /// waiting (FIFO). It goes through the middleware chain like any dispatched action.
    ///
    /// - Parameter action: The action to send.
    public func dispatch(_ action: Action) {
        send(action)
    }
}

extension ErrorResolverContext: Sendable where State: Sendable, Action: Sendable {}
