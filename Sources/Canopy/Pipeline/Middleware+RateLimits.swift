#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Middleware {
    /// A middleware that lets through at most one action of a kind per `interval` seconds.
    ///
    /// `matches` selects the kind, typically with a case pattern. The first matching action passes;
    /// matching actions that follow within `interval` seconds of the last one that passed are blocked
    /// (their dispatch completes as ``DispatchOutcome/blocked``). Other actions are not affected. Time is
    /// the tree's clock, so a test drives it with a ``ManualScheduler``. Each store the middleware is
    /// attached to keeps its own count.
    ///
    /// ```swift
    /// let store = StateStore(
    ///     Sync(),
    ///     middlewares: [.throttle({ if case .syncNow = $0 { true } else { false } }, for: 5)],
    ///     reducer: Sync.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - matches: Returns `true` for the actions to throttle.
    ///   - interval: The least time, in seconds, between two matching actions that pass.
    /// - Returns: The middleware, named `throttle`.
    public static func throttle(
        _ matches: @escaping @Sendable (Action) -> Bool,
        for interval: TimeInterval
    ) -> Middleware {
        _ = ThrottleStateMachine(interval: interval)  // checks `interval` where the middleware is made
        return Middleware(name: "throttle") {
            let machine = LockedValue(ThrottleStateMachine(interval: interval))
            return { action, context in
                guard matches(action) else { return context.next(action) }
                let now = context.now
                if machine.withLock({ $0.admit(at: now) }) {
                    context.next(action)
                }
            }
        }
    }

    /// A middleware that holds actions of a kind until none has come for `interval` seconds, then lets the
    /// last one through.
    ///
    /// `matches` selects the kind. A matching action is held and its dispatch completes as
    /// ``DispatchOutcome/blocked``; a newer one replaces it and restarts the wait. When `interval` seconds
    /// pass with no newer one, the held action is dispatched again to the node it was sent to, queued
    /// like any action; it skips this middleware, the middleware before it and the chains above this
    /// store's, and goes through the ones after it and the reducers. The queue is never held up
    /// meanwhile. Time is the tree's clock. Releasing the store, or attaching more middleware to it
    /// (``StateStore/use(_:)``), drops a held action.
    ///
    /// One debounce holds one action for the whole store it is attached to: on the root, a newer matching
    /// action replaces the held one whichever store of the tree it was sent to.
    ///
    /// ```swift
    /// let store = StateStore(
    ///     Search(),
    ///     middlewares: [.debounce({ if case .query = $0 { true } else { false } }, for: 0.3)],
    ///     reducer: Search.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - matches: Returns `true` for the actions to debounce.
    ///   - interval: The quiet time, in seconds, before the last matching action goes through.
    /// - Returns: The middleware, named `debounce`.
    public static func debounce(
        _ matches: @escaping @Sendable (Action) -> Bool,
        for interval: TimeInterval
    ) -> Middleware where Action: Sendable {
        _ = ActionDebounceStateMachine<Action>(interval: interval)  // checks `interval` where it is made
        return Middleware(name: "debounce") {
            let debouncer = Debouncer<Action>(interval: interval)
            return { action, context in
                guard matches(action) else { return context.next(action) }
                debouncer.hold(action, context: context)
            }
        }
    }

    /// A middleware that blocks actions of a kind while `limit` runs are in flight under `id`.
    ///
    /// Runs are the work started with ``MiddlewareContext/run(id:cancelInFlight:operation:)`` in the same
    /// store tree; one that ended or was cancelled no longer counts. Put this middleware before the one
    /// that starts the work. A blocked action's dispatch completes as ``DispatchOutcome/blocked``.
    ///
    /// ```swift
    /// let store = StateStore(
    ///     Sync(),
    ///     middlewares: [.maxInFlight({ $0 == .upload }, id: "upload", limit: 2), uploader],
    ///     reducer: Sync.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - matches: Returns `true` for the actions that would start work under `id`.
    ///   - id: The id the work runs under.
    ///   - limit: How many runs may be in flight at once (one or more).
    /// - Returns: The middleware, named `maxInFlight`.
    public static func maxInFlight<ID: Hashable & Sendable>(
        _ matches: @escaping @Sendable (Action) -> Bool,
        id: ID,
        limit: Int
    ) -> Middleware {
        let cap = InFlightLimit(limit)
        return Middleware("maxInFlight") { action, context in
            guard matches(action) else { return context.next(action) }
            if cap.admits(inFlight: context.environment.tasks.inFlightCount(id: id, store: context.target)) {
                context.next(action)
            }
        }
    }
}

/// Carries out an ``ActionDebounceStateMachine`` for one store: holds its state and the pending timer.
///
/// The timer holds it weakly; when the store (and so its middleware chain) goes, `deinit` cancels the
/// timer and the held action is dropped.
private final class Debouncer<Action: Sendable>: Sendable {
    private struct Storage: Sendable {
        var machine: ActionDebounceStateMachine<Action>
        var timer: ScheduledWork?
    }

    private let interval: TimeInterval
    private let storage: LockedValue<Storage>

    init(interval: TimeInterval) {
        self.interval = interval
        self.storage = LockedValue(Storage(machine: ActionDebounceStateMachine(interval: interval)))
    }

    deinit {
        storage.withLock { $0.timer }?.cancel()
    }

    /// On the tree's queue: holds `action` and (re)starts the quiet time.
    func hold<State>(_ action: Action, context: MiddlewareContext<State, Action>) {
        let resume = context.resumption()
        let environment = context.environment
        let (generation, earlier) = storage.withLock { storage in
            defer { storage.timer = nil }
            return (storage.machine.received(action).generation, storage.timer)
        }
        earlier?.cancel()
        let timer = environment.scheduler.schedule(after: interval, on: environment.queue) { [weak self] in
            self?.quietTimeEnded(generation: generation, resume: resume)
        }
        storage.withLock { $0.timer = timer }
    }

    /// On the tree's queue: the timer of `generation` fired.
    private func quietTimeEnded(generation: UInt64, resume: ChainResumption<Action>) {
        let released = storage.withLock { storage in
            storage.machine.quietTimeEnded(generation: generation)
        }
        if let released {
            resume(released)
        }
    }
}
