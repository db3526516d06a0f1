#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What a ``Middleware`` can see and do while it handles one action.
///
/// A context is valid only while its middleware runs, on the tree's queue: it is not `Sendable`, and
/// calling ``next(_:)`` after the middleware returned traps. To act later, start work with
/// ``run(id:cancelInFlight:operation:)`` and send actions through the ``TaskContext`` it gets.
///
/// ```swift
/// let search = Middleware<SearchState, SearchAction>("search") { action, context in
///     if case .query(let text) = action {
///         context.run(id: "search", cancelInFlight: true) { task in
///             let hits = try await index.search(text)
///             task.send(.results(hits))
///         }
///     }
///     context.next(action)
/// }
/// ```
public struct MiddlewareContext<State, Action> {
    @usableFromInline
    let link: MiddlewareLink<Action>
    @usableFromInline
    let token: UInt64

    @usableFromInline
    init(link: MiddlewareLink<Action>, token: UInt64) {
        self.link = link
        self.token = token
    }

    /// The state of the store the middleware is attached to, before any reducer ran for this action.
    @inlinable
    public var state: State {
        link.checkCurrent(token)
        return ChainStateReader<State>.reader(of: link.scratch).read()
    }

    /// The node the action was sent to.
    public var target: StoreID {
        environment.target
    }

    /// The time on the tree's clock, in seconds (see ``DelayScheduler/now``).
    public var now: TimeInterval {
        environment.now
    }

    /// Passes `action` on: to the next middleware, or to the reducers after the last one.
    ///
    /// Pass the action you received to let it through, or another action to transform it. Call it at
    /// most once, before returning; code after it runs once the rest of the chain has run (the
    /// reducers run after the whole chain).
    ///
    /// - Parameter action: The action to pass on.
    @inlinable
    public func next(_ action: Action) {
        link.next(action, token: token)
    }

    /// Sends a further action to the node this action was sent to (``target``), queued after the current
    /// one (FIFO); it goes through the whole pipeline.
    ///
    /// A root middleware handling an action sent to a child dispatches to that child.
    ///
    /// It goes through the whole middleware chain like any dispatched action, and never runs before the
    /// current action has been reduced.
    ///
    /// - Parameter action: The action to send.
    public func dispatch(_ action: Action) {
        environment.send(action)
    }

    /// Starts asynchronous work under `id`, in this store tree.
    ///
    /// The operation runs in a new `Task` and sends its actions through the ``TaskContext`` it receives;
    /// they go to the node this action was sent to. Once the run is cancelled — by
    /// ``cancel(id:)``, by a later run under the same id with `cancelInFlight: true`, or by the release of
    /// the store — its task is cancelled and any action it sends, even one already queued, is dropped
    /// before it reaches the middleware and reducers. Ids belong to the store the handled action was
    /// sent to (``target``): the same id for another store is another run.
    ///
    /// ```swift
    /// context.run(id: "sync", cancelInFlight: true) { task in
    ///     try await task.sleep(for: 0.5)
    ///     task.send(.synced(try await api.sync()))
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: Names the work, so it can be cancelled or replaced.
    ///   - cancelInFlight: Whether to cancel the runs already under `id` first. When `false`, runs under
    ///     the same id go on side by side and ``cancel(id:)`` stops them all.
    ///   - operation: The work. An error it throws, other than cancellation, is reported to diagnostics.
    public func run<ID: Hashable & Sendable>(
        id: ID,
        cancelInFlight: Bool = false,
        operation: @escaping @Sendable (TaskContext<Action>) async throws -> Void
    ) {
        let environment = self.environment
        environment.tasks.run(
            id: id,
            cancelInFlight: cancelInFlight,
            store: environment.target,
            deliver: environment.deliverer(),
            // The middleware runs in its store's dependency scope, and so does the work it starts.
            operation: DependencyScope.capturing(operation)
        )
    }

    /// Cancels every run under `id` in this store tree; their later actions are dropped.
    ///
    /// Cancelling an id with nothing running does nothing.
    ///
    /// - Parameter id: The id the work was started under.
    public func cancel<ID: Hashable & Sendable>(id: ID) {
        environment.tasks.cancel(id: id, store: environment.target)
    }

    /// The environment of the node the action was sent to.
    @usableFromInline
    var environment: MiddlewareEnvironment<Action> {
        link.checkCurrent(token)
        guard let environment = link.scratch.environment else {
            preconditionFailure("Internal inconsistency: a middleware chain ran without its environment")
        }
        return environment
    }

    /// The name of the middleware this context was given to.
    var middlewareName: String {
        link.name
    }

    /// A way to send an action later, from any thread, that enters the chain after this middleware.
    func resumption() -> ChainResumption<Action> {
        ChainResumption(send: environment.resumption(startIndex: link.level + 1))
    }
}

@available(*, unavailable, message: "A middleware context is valid only while its middleware runs")
extension MiddlewareContext: Sendable {}

/// Sends an action back into a node's middleware chain, after the middleware that made it.
///
/// A debounce keeps the last action and releases it after the quiet time; this lets it through without
/// meeting the debounce again, while the middlewares after it (and the reducers) see it as usual.
struct ChainResumption<Action>: Sendable {
    let send: @Sendable (Action) -> Void

    func callAsFunction(_ action: Action) {
        send(action)
    }
}
