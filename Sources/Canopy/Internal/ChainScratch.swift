/// The bookkeeping of the one action a ``MiddlewareChain`` is running: who may call `next`, the action
/// that reached the end, what was thrown, and the environment the contexts read.
///
/// It is reused for every action, so running the chain allocates nothing. It is a class, and keeps the
/// forwarded action in raw memory, because in Canopy's unspecialised generic code every use of a generic
/// struct such as `Optional<Action>` costs a runtime metadata lookup (see Docs/Performance.md).
final class ChainScratch<State, Action>: @unchecked Sendable {
    // Safety: every field is read and written only by `MiddlewareChain`, `MiddlewareLink` and
    // `MiddlewareContext`, on the tree's serial queue (the chain checks it in debug builds when an action
    // starts, and a context is not `Sendable`, so it cannot leave the queue), which serialises every
    // access. No access calls out to other code while it is in progress (the chain reads or writes a
    // field, then calls a middleware), so accesses cannot overlap, and the dynamic exclusivity check is
    // turned off as in `LockedValue`.
    // `forwarded` is allocated here for one `Action` and freed in `deinit`; it holds an initialised
    // action exactly while `didForward` is true, between the last middleware's `next` and the end of
    // `MiddlewareChain.run`, which moves it out. `deinit` cannot run in between: the run holds the chain.

    // Counts actions; a context from an earlier action carries an older value.
    @exclusivity(unchecked) var token: UInt64 = 0
    // The level whose context may call `next` now, or -1 when none may.
    @exclusivity(unchecked) var expecting = -1
    // Levels below this one have called `next` during the current action.
    @exclusivity(unchecked) var forwardedThrough = 0
    @exclusivity(unchecked) var isRunning = false
    // The last middleware called `next`; the action to reduce is in `forwarded`.
    @exclusivity(unchecked) var didForward = false
    let forwarded = UnsafeMutableRawPointer.allocate(
        byteCount: max(MemoryLayout<Action>.size, 1),
        alignment: MemoryLayout<Action>.alignment
    )
    // Not retained: `MiddlewareChain.run`'s caller keeps it alive for the run, and it is cleared before
    // the run returns.
    @exclusivity(unchecked) unowned(unsafe) var environment: MiddlewareEnvironment<Action>?
    // The first error a middleware threw during the current action, and the middleware's level.
    @exclusivity(unchecked) var failure: (any Error)?
    // Whether `failure` is set: testing the optional existential would copy it, for each action.
    @exclusivity(unchecked) var didFail = false
    @exclusivity(unchecked) var failureLevel = 0
    // Reads the node's state on the queue (the state before the action, while the chain runs).
    let currentState: @Sendable () -> State

    init(currentState: @escaping @Sendable () -> State) {
        self.currentState = currentState
    }

    deinit {
        if didForward {
            // Safety: `forwarded` holds an `Action` exactly while `didForward` is true.
            forwarded.assumingMemoryBound(to: Action.self).deinitialize(count: 1)
        }
        forwarded.deallocate()
    }

    /// Stores the action the last middleware forwarded.
    @inline(__always)
    func forward(_ action: Action) {
        forwarded.initializeMemory(as: Action.self, to: action)
        didForward = true
    }

    /// Drops the forwarded action, if any.
    func discardForwarded() {
        guard didForward else { return }
        didForward = false
        // Safety: `forwarded` held an `Action`, since `didForward` was true.
        forwarded.assumingMemoryBound(to: Action.self).deinitialize(count: 1)
    }

    /// Moves the forwarded action out, if any.
    @inline(__always)
    func takeForwarded(into action: inout Action) -> Bool {
        guard didForward else { return false }
        didForward = false
        // Safety: `forwarded` held an `Action`, since `didForward` was true; it is left empty.
        action = forwarded.assumingMemoryBound(to: Action.self).move()
        return true
    }
}
