public import Dispatch

/// An action that, once reduced, also runs asynchronous work whose results are dispatched back.
///
/// Dispatching one reduces it like any other action, then runs ``execute(completeHandler:)`` exactly
/// once, on ``dispatchQueue``, in dispatch order. Every result passed to the handler is dispatched to
/// the store that received the async action; a result that is itself an `AsyncAction` runs too.
///
/// ```swift
/// struct FetchProfile: AsyncAction {
///     func execute(completeHandler: @escaping (AppAction) -> Void) {
///         api.fetchProfile { completeHandler(.profileLoaded($0)) }
///     }
/// }
/// ```
public protocol AsyncAction: Sendable {
    /// The type of the actions the work produces; it should be the store's action type.
    associatedtype ResultAction

    /// The queue that runs ``execute(completeHandler:)``. Defaults to `.main`.
    var dispatchQueue: DispatchQueue { get }

    /// Starts the work. Call `completeHandler` with each resulting action, as many times as needed.
    ///
    /// - Parameter completeHandler: Dispatches a result to the store that received this action.
    func execute(completeHandler: @escaping (ResultAction) -> Void)
}

extension AsyncAction {
    /// The main queue.
    public var dispatchQueue: DispatchQueue { .main }
}
