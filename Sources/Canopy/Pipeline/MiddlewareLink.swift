/// How a chain calls one middleware's body: compiled with the body, in the module that made the
/// middleware, and knowing only the action type, so that the engine, which knows a node's action type but
/// not its state type, calls a chain's first middleware itself.
@usableFromInline
struct MiddlewareInvocation<Action>: Sendable {
    /// Starts a run of the chain at a middleware (``start``).
    @usableFromInline
    typealias Start = @Sendable (_ action: inout Action, _ link: MiddlewareLink<Action>) -> Bool
    /// Runs a middleware for an action the one before it forwarded (``follow``).
    @usableFromInline
    typealias Follow = @Sendable (_ action: Action, _ link: MiddlewareLink<Action>, _ token: UInt64) -> Void

    /// Starts a run of the chain at this middleware for `action`, the engine's, as the link `link`: the
    /// call begins the run, and once the body has returned moves the action the chain forwarded, if
    /// any, into `action` and ends the run. Returns whether an action was forwarded and no middleware
    /// threw.
    @usableFromInline
    let start: Start
    /// Runs the body, as the link `link`, for `action`, which the middleware before it forwarded during
    /// the run numbered `token`.
    @usableFromInline
    let follow: Follow

    @inlinable
    init(start: @escaping Start, follow: @escaping Follow) {
        self.start = start
        self.follow = follow
    }
}

/// Sees an action that goes on unchanged: the work of a middleware that only observes. It borrows the
/// action: the engine and the chain lend it theirs, with no copy, even in unspecialised code (where a
/// generic value is passed by address).
@usableFromInline
typealias MiddlewareTap<Action> =
    @Sendable (_ action: borrowing Action, _ environment: MiddlewareEnvironment<Action>) -> Void

/// One middleware of a ``MiddlewareChain``, linked to the one after it.
///
/// A linked list of classes rather than an array of closures: an unspecialised `[Body]` looks up the
/// closure type's metadata on every subscript, while a class field does not.
///
/// What a middleware does for one action (`start` and `follow`, made by `Middleware.invocation(_:)`, and
/// `next` through its context) is inlinable, so that a middleware made in the app's module runs compiled
/// for its action type.
@usableFromInline
final class MiddlewareLink<Action>: Sendable {
    @usableFromInline
    let name: String
    @usableFromInline
    let level: Int
    /// Starts a run at this middleware (``MiddlewareInvocation/start``).
    @usableFromInline
    let start: MiddlewareInvocation<Action>.Start
    /// Runs this middleware for an action the one before it forwarded (``MiddlewareInvocation/follow``).
    @usableFromInline
    let follow: MiddlewareInvocation<Action>.Follow
    /// The work of a middleware that only observes (``Middleware/tap``); for the others, nothing.
    let tap: MiddlewareTap<Action>
    @usableFromInline
    let following: MiddlewareLink?
    @usableFromInline
    let scratch: ChainScratch<Action>
    /// Whether this middleware and every one after it only observe: from here on, the action goes to
    /// the reducers unchanged.
    let onlyTapsFromHere: Bool

    init(
        name: String,
        level: Int,
        invocation: MiddlewareInvocation<Action>,
        tap: @escaping MiddlewareTap<Action>,
        observes: Bool,
        following: MiddlewareLink?,
        scratch: ChainScratch<Action>
    ) {
        self.name = name
        self.level = level
        self.start = invocation.start
        self.follow = invocation.follow
        self.tap = tap
        self.following = following
        self.scratch = scratch
        self.onlyTapsFromHere = observes && (following?.onlyTapsFromHere ?? true)
    }

    /// Runs this middleware and those after it, which only observe, for the action at `action`, which
    /// goes on unchanged; no context, no `next`.
    func tapThrough(_ action: borrowing Action, environment: MiddlewareEnvironment<Action>) {
        tap(action, environment)
        guard following != nil else { return }  // the usual case: no copy of `following` to make
        var next = following
        while let link = next {
            link.tap(action, environment)
            next = link.following
        }
    }

    /// Runs the chain from this middleware for `action`: begins the run, and once it is over moves the
    /// action the chain forwarded into `action`. Returns whether it did (see
    /// ``MiddlewareInvocation/start``).
    @inline(__always)
    func runChain(_ action: inout Action) -> Bool {
        start(&action, self)
    }

    /// Records `error`, thrown by this middleware's body, unless an error was recorded first.
    @usableFromInline
    func fail(_ error: any Error) {
        guard !scratch.didFail else { return }
        scratch.failure = error
        scratch.failureLevel = level
        scratch.didFail = true
    }

    /// This middleware's `next`: runs the following middleware, or hands the action to the reducers.
    ///
    /// Inlined into the middleware's body: the checks and the last middleware's hand-over are a few
    /// loads and stores, less than a call.
    @inlinable
    @inline(__always)
    func next(_ action: Action, token: UInt64) {
        let scratch = self.scratch
        // Only the running middleware of the current action may call `next`, once: `expecting` is its
        // level only until it calls `next` or returns, and `token` tells an earlier action's context.
        guard scratch.expecting == level, token == scratch.token else {
            misusedNext(token: token)
        }
        scratch.forwardedThrough = level &+ 1
        guard let following else {
            scratch.forward(action)
            scratch.expecting = -1
            return
        }
        Self.invoke(following, with: action, token: token)
    }

    /// Runs `following`, the middleware after this one, for `action`. Out of line, so that `next`, with
    /// the last middleware's work only, is small enough to be inlined into the middleware.
    @inlinable
    @inline(never)
    static func invoke(_ following: MiddlewareLink, with action: Action, token: UInt64) {
        following.follow(action, following, token)
    }

    @usableFromInline
    func misusedNext(token: UInt64) -> Never {
        if token == scratch.token, scratch.isRunning, scratch.forwardedThrough > level {
            preconditionFailure("Middleware \"\(name)\" called next twice for one action")
        }
        preconditionFailure("Middleware \"\(name)\" called next after it returned")
    }

    /// Traps unless `token` is the action being run.
    @usableFromInline
    func checkCurrent(_ token: UInt64) {
        guard token == scratch.token, scratch.isRunning else {
            preconditionFailure("Middleware \"\(name)\" used its context after it returned")
        }
    }
}
