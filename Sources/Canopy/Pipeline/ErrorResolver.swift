/// Turns what a ``Middleware`` threw into recovery actions, or passes it on.
///
/// A store's resolvers form a chain: each receives the error with the action and the state, may
/// dispatch recovery actions through its ``ErrorResolverContext``, and returns whether it resolved the
/// error or forwards it (possibly a different error) to the next one. An error that leaves the last
/// resolver is reported once to ``StoreDiagnostics`` as ``StoreEvent/error(store:action:source:error:)``.
/// Either way no reducer runs for the action, and the dispatch completes as
/// ``DispatchOutcome/failed(_:)`` with the last error a resolver forwarded, or the one the middleware
/// threw when none forwarded another.
///
/// ```swift
/// let retryLater = ErrorResolver<Sync, SyncAction>("retry later") { error, context in
///     guard error is NetworkError else { return .forward(error) }
///     context.dispatch(.scheduleRetry)
///     return .resolved
/// }
/// ```
public struct ErrorResolver<State, Action>: Sendable {
    /// Handles one error.
    public typealias Body =
        @Sendable (_ error: any Error, _ context: ErrorResolverContext<State, Action>) -> ErrorResolution

    /// The name used in diagnostics.
    public let name: String

    let resolve: Body

    /// Creates a resolver.
    ///
    /// - Parameters:
    ///   - name: A short name for diagnostics.
    ///   - resolve: Handles the error: dispatch recovery actions through the context, then return
    ///     ``ErrorResolution/resolved`` or ``ErrorResolution/forward(_:)``.
    public init(_ name: String, _ resolve: @escaping Body) {
        self.name = name
        self.resolve = resolve
    }

    /// This resolver, run inside `scope`: the dependency scope of the store it is attached to (see
    /// `DependencyScope`).
    func running(in scope: DependencyScope) -> ErrorResolver {
        let resolve = self.resolve
        return ErrorResolver(name) { error, context in
            DependencyScope.$current.withValue(scope) { resolve(error, context) }
        }
    }
}
