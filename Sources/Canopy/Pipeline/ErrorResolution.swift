/// What an ``ErrorResolver`` did with an error.
///
/// ```swift
/// ErrorResolver<Board, BoardAction>("offline") { error, context in
///     guard error is OfflineError else { return .forward(error) }
///     context.dispatch(.showBanner("You are offline"))
///     return .resolved
/// }
/// ```
public enum ErrorResolution: Sendable {
    /// The error was dealt with; later resolvers do not see it and diagnostics are not told.
    case resolved

    /// Pass this error (the one received, or another) to the next resolver.
    case forward(any Error)
}
