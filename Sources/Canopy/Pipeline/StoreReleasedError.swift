/// The error a dispatch's completion receives when the store was released before the action's turn.
///
/// ```swift
/// weak.dispatch(.refresh) { outcome in
///     if case .failed(let error) = outcome, error is StoreReleasedError { print("gone") }
/// }
/// ```
public struct StoreReleasedError: Error, Sendable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// A one-line description.
    public var description: String {
        "the store was released before the action was reduced"
    }
}
