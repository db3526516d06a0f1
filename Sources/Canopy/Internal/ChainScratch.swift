/// The bookkeeping of the one action a ``MiddlewareChain`` is running: who may call `next`, what was
/// forwarded, what was thrown, and the state, target and environment the contexts read.
///
/// It is reused for every action, so running the chain allocates nothing in the common case.
final class ChainScratch<State, Action>: @unchecked Sendable {
    // Safety: every field is read and written only by `MiddlewareChain` and `MiddlewareContext`, on the
    // tree's serial queue (the chain checks it in debug builds when an action starts, and a context is
    // not `Sendable`, so it cannot leave the queue), which serialises every access. No access calls out
    // to other code while it is in progress (the chain reads or writes a field, then calls a middleware),
    // so accesses cannot overlap, and the dynamic exclusivity check is turned off as in `LockedValue`.

    // Counts actions; a context from an earlier action carries an older value.
    @exclusivity(unchecked) var token: UInt64 = 0
    // The level whose context may call `next` now, or -1 when none may.
    @exclusivity(unchecked) var expecting = -1
    // Levels below this one have called `next` during the current action.
    @exclusivity(unchecked) var forwardedThrough = 0
    @exclusivity(unchecked) var isRunning = false
    @exclusivity(unchecked) var state: State?
    @exclusivity(unchecked) var target: StoreID?
    @exclusivity(unchecked) var environment: MiddlewareEnvironment<Action>?
    // What the last middleware passed to `next`.
    @exclusivity(unchecked) var forwarded: Action?
    // The first error a middleware threw during the current action, and the middleware's level.
    @exclusivity(unchecked) var failure: (error: any Error, level: Int)?

    init() {}
}
