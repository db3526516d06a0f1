/// A step every action of a store takes before any reducer runs.
///
/// A middleware sees the action, the state before it and the node it was sent to, through its
/// ``MiddlewareContext``. It decides what reaches the reducers:
///
/// - forward it: `context.next(action)`;
/// - forward a different action in its place: `context.next(other)`;
/// - block it: return without calling `next` (the dispatch completes as ``DispatchOutcome/blocked``);
/// - fail: `throw`, which hands the error to the store's ``ErrorResolver``s and completes the dispatch
///   as ``DispatchOutcome/failed(_:)``.
///
/// It may also dispatch more actions (queued after the current one) and start or cancel work by id.
/// Middlewares run in the order they were added, on the tree's queue, so keep them quick.
///
/// ```swift
/// let validate = Middleware<Board, BoardAction>("validate") { action, context in
///     if case .add(let title) = action, title.isEmpty {
///         context.dispatch(.showError("A task needs a title"))
///         return  // blocked
///     }
///     context.next(action)
/// }
/// let store = StateStore(Board(), middlewares: [validate], reducer: Board.reduce)
/// ```
///
/// Calling `next` twice, or after the middleware returned, is a programming error and traps with a
/// message naming the middleware.
public struct Middleware<State, Action>: Sendable {
    /// The work of a middleware for one action.
    public typealias Body = @Sendable (_ action: Action, _ context: MiddlewareContext<State, Action>) throws -> Void

    /// The name used in diagnostics and precondition messages.
    public let name: String

    // Makes the body once per store the middleware is attached to, so a middleware with state of its own
    // (a rate limit) keeps separate state per store.
    let makeBody: @Sendable () -> Body

    /// Sees an action that goes on unchanged: the work of a middleware that only observes.
    @usableFromInline
    typealias Tap = @Sendable (_ action: Action, _ environment: MiddlewareEnvironment<Action>) -> Void

    // For a middleware that only observes (`observes`): the chain calls it directly, without a context
    // or a `next`, and when the rest of the chain observes too, leaves the action where it is. Not
    // optional: an optional closure of a generic type is kept at another abstraction, and each call
    // would go through two reabstraction thunks.
    let tap: Tap
    let observes: Bool

    /// Creates a middleware.
    ///
    /// - Parameters:
    ///   - name: A short name for diagnostics and error messages.
    ///   - body: Handles one action; call `context.next` to let it (or another action) reach the reducers.
    public init(_ name: String, _ body: @escaping Body) {
        self.name = name
        self.makeBody = { body }
        self.tap = { _, _ in }
        self.observes = false
    }

    // A middleware whose body is made afresh, with its own state, for each store it is attached to.
    init(name: String, makeBody: @escaping @Sendable () -> Body) {
        self.name = name
        self.makeBody = makeBody
        self.tap = { _, _ in }
        self.observes = false
    }

    // A middleware that sees each action and always passes it on unchanged (the action recorder).
    @usableFromInline
    init(name: String, observer tap: @escaping Tap) {
        self.name = name
        self.makeBody = {
            { action, context in
                tap(action, context.environment)
                context.next(action)
            }
        }
        self.tap = tap
        self.observes = true
    }
}
