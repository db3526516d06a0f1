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

    /// How a chain calls the middleware's body for one action (``MiddlewareInvocation``).
    @usableFromInline
    typealias Invocation = MiddlewareInvocation<Action>

    // Makes the middleware's `Invocation` once per store it is attached to, so a middleware with state
    // of its own (a rate limit) keeps separate state per store.
    @usableFromInline
    let makeInvocation: @Sendable () -> Invocation

    /// Sees an action that goes on unchanged: the work of a middleware that only observes, which the
    /// chain calls as its tap (``MiddlewareTap``).
    @usableFromInline
    typealias Observe = MiddlewareTap<Action>

    // For a middleware that only observes (`observes`): the chain calls it directly, without a context
    // or a `next`, and when the rest of the chain observes too, leaves the action where it is. Not
    // optional: an optional closure of a generic type is kept at another abstraction, and each call
    // would go through two reabstraction thunks.
    @usableFromInline
    let tap: Observe
    @usableFromInline
    let observes: Bool

    /// Creates a middleware.
    ///
    /// - Parameters:
    ///   - name: A short name for diagnostics and error messages.
    ///   - body: Handles one action; call `context.next` to let it (or another action) reach the reducers.
    @inlinable
    public init(_ name: String, _ body: @escaping Body) {
        // Inlinable: the work of one action (the call of `body`, `next`, the copy of the action it
        // forwards) is compiled in the caller's module for its `State` and `Action`, not run through
        // Canopy's unspecialised generic code.
        self.name = name
        let invocation = Self.invocation(body)
        self.makeInvocation = { invocation }
        self.tap = { _, _ in }
        self.observes = false
    }

    // A middleware whose body is made afresh, with its own state, for each store it is attached to.
    init(name: String, makeBody: @escaping @Sendable () -> Body) {
        self.name = name
        self.makeInvocation = { Self.invocation(makeBody()) }
        self.tap = { _, _ in }
        self.observes = false
    }

    // A middleware that sees each action and always passes it on unchanged (the action recorder).
    // Inlinable, so that reading the action in place is compiled for the action type.
    @inlinable
    init(name: String, observer observe: @escaping Observe) {
        self.name = name
        let invocation = Self.invocation { action, context in
            observe(action, context.environment)
            context.next(action)
        }
        self.makeInvocation = { invocation }
        // The observer itself, made in the caller's module: no closure in between.
        self.tap = observe
        self.observes = true
    }

    /// This middleware, run inside `scope` each time it sees an action: the dependency scope of the
    /// store it is attached to (see `DependencyScope`).
    func running(in scope: DependencyScope) -> Middleware {
        let makeInvocation = self.makeInvocation
        let tap = self.tap
        return Middleware(
            name: name,
            makeInvocation: {
                let invocation = makeInvocation()
                return Invocation(
                    start: { action, link in
                        DependencyScope.$current.withValue(scope) { invocation.start(&action, link) }
                    },
                    follow: { action, link, token in
                        DependencyScope.$current.withValue(scope) { invocation.follow(action, link, token) }
                    }
                )
            },
            tap: { action, environment in
                DependencyScope.$current.withValue(scope) { tap(action, environment) }
            },
            observes: observes
        )
    }

    private init(
        name: String,
        makeInvocation: @escaping @Sendable () -> Invocation,
        tap: @escaping Observe,
        observes: Bool
    ) {
        self.name = name
        self.makeInvocation = makeInvocation
        self.tap = tap
        self.observes = observes
    }

    /// The `Invocation` of a middleware whose work is `body`.
    ///
    /// A run's beginning and end are here, compiled with the body, rather than in the chain around the
    /// call: the engine calls the first middleware's `start` directly.
    @inlinable
    static func invocation(_ body: @escaping Body) -> Invocation {
        Invocation(
            start: { action, link in
                let token = link.scratch.begin(at: link.level)
                call(body, with: action, as: link, token: token)
                return link.scratch.end(settlingInto: &action)
            },
            follow: { action, link, token in
                call(body, with: action, as: link, token: token)
            }
        )
    }

    /// Runs `body` for `action`, as the link `link`, in the run numbered `token`.
    @inlinable
    @inline(__always)
    static func call(_ body: Body, with action: Action, as link: MiddlewareLink<Action>, token: UInt64) {
        let scratch = link.scratch
        scratch.expecting = link.level
        do {
            try body(action, MiddlewareContext(link: link, token: token))
        } catch {
            link.fail(error)
        }
        scratch.expecting = -1
    }
}
