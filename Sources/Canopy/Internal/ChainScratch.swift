// Public: the run's inlinable part, compiled in the app's module, reads the `Atomic` cells.
public import Synchronization

/// The bookkeeping of the one action a ``MiddlewareChain`` is running: who may call `next`, the action
/// that reached the end, what was thrown, and the environment the contexts read.
///
/// It is reused for every action, so running the chain allocates nothing. It is a class, and keeps the
/// forwarded action in a one-element buffer rather than an `Optional<Action>`, because in Canopy's
/// unspecialised generic code every use of a generic struct such as `Optional<Action>` costs a runtime
/// metadata lookup (see Docs/Performance.md), and a stored `var` of a class reached from the app's
/// module has its exclusive access checked at run time.
@usableFromInline
// Safety: Sendable by hand: every field is confined to the tree's queue, as the note below details.
final class ChainScratch<Action>: @unchecked Sendable {
    // Safety: every field is read and written only by `MiddlewareChain`, `MiddlewareLink`,
    // `Middleware.invocation(_:)` and `MiddlewareContext`, on the tree's serial queue (the engine's drain
    // checks it once per turn, the chain's general path in debug builds when an action starts, and a
    // context is not `Sendable`, so it cannot leave the queue), which serialises every access. No access
    // calls out to other code while it is in progress (a field is read or written, then a middleware
    // called), so accesses cannot overlap.
    // `forwarded` is a buffer with room for one `Action`, owned by this object alone; its element is an
    // initialised action exactly while `didForward` is true, between the last middleware's `next` and the
    // return of the middleware the run started at: `end(settlingInto:)` moves it out, or, when a
    // middleware threw, `MiddlewareChain.stopped(_:)` drops it. `deinit` empties it if a run left an
    // action there; it cannot run during a run, which holds the chain.
    // The fields the inlinable part of a run (`Middleware.invocation(_:)`, `MiddlewareLink.next`) uses are
    // `@usableFromInline`: that code is compiled in the app's module, still only on the tree's queue.

    // The scalars the inlinable part of a run reads and writes are kept in `Atomic` cells, read and
    // written with relaxed ordering (plain loads and stores): the fields are queue-only, so no ordering
    // is needed, and a cell is a `let`, which no access to can overlap another, where a stored `var`
    // reached from another module's inlined code would be checked at run time on every access.

    /// Counts actions; a context from an earlier action carries an older value.
    @usableFromInline var token: UInt64 {
        @inlinable @inline(__always) get { tokenCell.load(ordering: .relaxed) }
        @inlinable @inline(__always) set { tokenCell.store(newValue, ordering: .relaxed) }
    }
    /// The level whose context may call `next` now, or -1 when none may.
    @usableFromInline var expecting: Int {
        @inlinable @inline(__always) get { expectingCell.load(ordering: .relaxed) }
        @inlinable @inline(__always) set { expectingCell.store(newValue, ordering: .relaxed) }
    }
    /// Levels below this one have called `next` during the current action.
    @usableFromInline var forwardedThrough: Int {
        @inlinable @inline(__always) get { forwardedThroughCell.load(ordering: .relaxed) }
        @inlinable @inline(__always) set { forwardedThroughCell.store(newValue, ordering: .relaxed) }
    }
    /// Set and cleared by `begin(at:)` and `end(settlingInto:)`.
    @usableFromInline var isRunning: Bool {
        @inlinable @inline(__always) get { isRunningCell.load(ordering: .relaxed) }
        @inlinable @inline(__always) set { isRunningCell.store(newValue, ordering: .relaxed) }
    }
    /// The last middleware called `next`; the action to reduce is in `forwarded`.
    @usableFromInline var didForward: Bool {
        @inlinable @inline(__always) get { didForwardCell.load(ordering: .relaxed) }
        @inlinable @inline(__always) set { didForwardCell.store(newValue, ordering: .relaxed) }
    }
    /// Whether `failure` is set: testing the optional existential would copy it, for each action.
    @usableFromInline var didFail: Bool {
        @inlinable @inline(__always) get { didFailCell.load(ordering: .relaxed) }
        @inlinable @inline(__always) set { didFailCell.store(newValue, ordering: .relaxed) }
    }
    @usableFromInline let tokenCell = Atomic<UInt64>(0)
    @usableFromInline let expectingCell = Atomic<Int>(-1)
    @usableFromInline let forwardedThroughCell = Atomic<Int>(0)
    @usableFromInline let isRunningCell = Atomic<Bool>(false)
    @usableFromInline let didForwardCell = Atomic<Bool>(false)
    @usableFromInline let didFailCell = Atomic<Bool>(false)
    /// The forwarded action's place: the buffer's one element, initialised exactly while `didForward`
    /// is true (see the note above); `deinit` empties it before the buffer goes. The buffer does not
    /// destroy its elements itself.
    @usableFromInline
    let forwarded = ManagedBuffer<Void, Action>.create(minimumCapacity: 1) { _ in }
    /// The environment of the current run, kept after it: a chain attached to a node always runs in
    /// that node's, so it is stored once rather than for each action (``use(_:)``).
    private(set) var environment: MiddlewareEnvironment<Action>?
    // The first error a middleware threw during the current action, and the middleware's level.
    var failure: (any Error)?
    var failureLevel = 0
    /// Reads the state of the node the chain is attached to: a ``ChainStateReader`` of the node's state
    /// type, which the scratch, made for the action type only, does not know.
    @usableFromInline
    let stateReader: AnyObject

    init(stateReader: AnyObject) {
        self.stateReader = stateReader
    }

    deinit {
        discardForwarded()
    }

    /// Makes `environment` the run's, storing it only when it is not already.
    @inline(__always)
    func use(_ environment: MiddlewareEnvironment<Action>) {
        if self.environment !== environment {
            self.environment = environment
        }
    }

    /// Stores the action the last middleware forwarded.
    @inlinable
    func forward(_ action: Action) {
        // Safety: `forwarded` is empty here: only the last middleware's one allowed `next` fills it, and
        // the run empties it before the next action.
        forwarded.withUnsafeMutablePointerToElements { $0.initialize(to: action) }
        didForward = true
    }

    /// Notes that an action starts at the middleware at `level`; returns the action's token.
    @inlinable
    func begin(at level: Int) -> UInt64 {
        guard !isRunning else { Self.ranFromInsideItself() }
        isRunning = true
        token &+= 1
        forwardedThrough = level
        return token
    }

    /// Once the middleware the run started at has returned: ends the run and moves the forwarded action,
    /// if any, into `action`, the engine's, unless a middleware threw. Returns whether it moved one.
    // Always inlined into the run: with the move in the buffer's closure, the inliner would otherwise keep
    // it as a call of its own, about 7 instructions per action.
    @inlinable @inline(__always)
    func end(settlingInto action: inout Action) -> Bool {
        isRunning = false
        guard didForward, !didFail else { return false }
        didForward = false
        // Moved as one value: `moveUpdate(from:count: 1)` copies a whole stride for plain data, past the
        // end of an action whose size is not a multiple of its alignment, such as the engine's on the
        // stack (AddressSanitizer caught a 9-byte action written as 16).
        // Safety: `forwarded` held an `Action`, since `didForward` was true; it is left empty.
        action = forwarded.withUnsafeMutablePointerToElements { $0.move() }
        return true
    }

    /// Traps: a chain was run while it was running. Compiled in Canopy, so the check holds whatever the
    /// app's module is built with.
    @usableFromInline
    static func ranFromInsideItself() -> Never {
        preconditionFailure("Internal inconsistency: a middleware chain was run from inside itself")
    }

    /// Drops the forwarded action, if any.
    func discardForwarded() {
        guard didForward else { return }
        didForward = false
        // Safety: `forwarded` held an `Action`, since `didForward` was true; it is left empty.
        _ = forwarded.withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }
}
