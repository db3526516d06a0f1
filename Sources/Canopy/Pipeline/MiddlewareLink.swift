/// One middleware of a ``MiddlewareChain``, linked to the one after it.
///
/// A linked list of classes rather than an array of closures: an unspecialised `[Body]` looks up the
/// closure type's metadata on every subscript, while a class field does not.
final class MiddlewareLink<State, Action>: Sendable {
    let name: String
    let level: Int
    let body: Middleware<State, Action>.Body
    /// The work of a middleware that only observes (``Middleware/tap``); for the others, nothing.
    let tap: Middleware<State, Action>.Tap
    let following: MiddlewareLink?
    let scratch: ChainScratch<State, Action>
    /// Whether this middleware and every one after it only observe: from here on, the action goes to
    /// the reducers unchanged.
    let onlyTapsFromHere: Bool

    init(
        name: String,
        level: Int,
        body: @escaping Middleware<State, Action>.Body,
        tap: @escaping Middleware<State, Action>.Tap,
        observes: Bool,
        following: MiddlewareLink?,
        scratch: ChainScratch<State, Action>
    ) {
        self.name = name
        self.level = level
        self.body = body
        self.tap = tap
        self.following = following
        self.scratch = scratch
        self.onlyTapsFromHere = observes && (following?.onlyTapsFromHere ?? true)
    }

    /// Runs this middleware and those after it, which only observe, for `action`, which goes on
    /// unchanged; no context, no `next`.
    func tapThrough(_ action: Action, environment: MiddlewareEnvironment<Action>) {
        tap(action, environment)
        guard following != nil else { return }  // the usual case: no copy of `following` to make
        var next = following
        while let link = next {
            link.tap(action, environment)
            next = link.following
        }
    }

    /// Runs this middleware for `action`, recording the first error thrown in the chain.
    func invoke(_ action: Action, token: UInt64) {
        scratch.expecting = level
        do {
            try body(action, MiddlewareContext(link: self, token: token))
        } catch {
            if !scratch.didFail {
                scratch.failure = error
                scratch.failureLevel = level
                scratch.didFail = true
            }
        }
        scratch.expecting = -1
    }

    /// This middleware's `next`: runs the following middleware, or hands the action to the reducers.
    func next(_ action: Action, token: UInt64) {
        let scratch = self.scratch
        guard token == scratch.token, scratch.isRunning, scratch.expecting == level else {
            misusedNext(token: token)
        }
        scratch.forwardedThrough = level + 1
        if let following {
            following.invoke(action, token: token)
        } else {
            scratch.forward(action)
            scratch.expecting = -1
        }
    }

    private func misusedNext(token: UInt64) -> Never {
        if token == scratch.token, scratch.isRunning, scratch.forwardedThrough > level {
            preconditionFailure("Middleware \"\(name)\" called next twice for one action")
        }
        preconditionFailure("Middleware \"\(name)\" called next after it returned")
    }

    /// Traps unless `token` is the action being run.
    func checkCurrent(_ token: UInt64) {
        guard token == scratch.token, scratch.isRunning else {
            preconditionFailure("Middleware \"\(name)\" used its context after it returned")
        }
    }
}
