// Public: the atomic filter's check is inlined into node loops compiled in the app's module.
public import Synchronization

/// The dedup check of one subscription for an equating that compares one projection of the state, in
/// front of its handler: ``check(_:)`` calls `handler` with a state unless its projection equals that of
/// the last state let through; the first always passes. One per subscription, called only by its node's
/// observer, on its tree's queue.
///
/// It backs ``Equating/keyPath(_:)`` and ``Equating/equal(value:)``. Keeping the last accepted
/// *projection* reads the key path once per state, where comparing the last state with the new one
/// through the predicate reads it twice. The equating makes it where it is made
/// (``Equating/makeCheck``), so ``check(_:)`` is compiled for the state's and the projection's types
/// there, and the node's observer closure, whose one capture and so whose context is this object,
/// calls it directly. It remembers the last projection in a `Last` cell, a `Mutex`, whose type its
/// metadata then carries for its `init` and `deinit` (``LastProjectionCell``). A projection to an `Int`
/// or a `Bool`, the commonest, goes to ``AtomicProjectionFilter`` instead.
///
/// It holds the handler and the token's gate itself: a state that passes goes from the check through
/// the gate to the handler, both `let`s of the observer's context, which the node's slot keeps alive
/// for the call, so nothing is retained and no closure lies between them. The token holds only the
/// gate, so what the handler captured still goes with the observer. In a props subscription
/// (``SubscriptionPipeline``) the handler is the pipeline's next stage, behind a gate that nothing
/// closes: the pipeline's token closes a gate of its own, checked before this one.
@usableFromInline
final class ProjectionFilter<State, Last: LastProjectionCell & ~Copyable>: Sendable {
    @usableFromInline
    let project: @Sendable (State) -> Last.Projection

    /// What a state that is not a duplicate goes on to.
    @usableFromInline
    let handler: @Sendable (State) -> Void

    /// The gate `handler` is called through, which the subscription's token closes.
    @usableFromInline
    let gate: CallGate

    /// The last projection let through. Only ``check(_:)`` uses it, on the tree's queue, one state at a
    /// time; its lock is held for the comparison only, not while the projection or the handler runs.
    @usableFromInline
    let last = Last()

    @inlinable
    init(
        project: @escaping @Sendable (State) -> Last.Projection,
        gate: CallGate,
        handler: @escaping @Sendable (State) -> Void
    ) {
        self.project = project
        self.gate = gate
        self.handler = handler
    }

    /// Calls `handler` with `state`, through the gate, unless its projection equals the last projection
    /// let through, which it then becomes. Answers `.dead` for a state that passes once the gate is
    /// closed, `.active` otherwise.
    @inlinable
    func check(_ state: State) -> ObserverStatus {
        if last.repeats(project(state)) {
            return .active
        }
        return gate.withCall { handler(state) } ? .active : .dead
    }
}

/// ``ProjectionFilter`` for a projection to an `Int`, or to a `Bool` counted as 0 or 1: the last
/// projection let through is kept in two atomics of the filter's own, the value and whether there is one
/// yet.
///
/// Only the subscribing tree's queue uses them, one state at a time, and the queue orders its uses, so
/// relaxed loads and stores suffice: each is a plain move, where a lock costs about 20 instructions.
/// They are fields of concrete types, not a cell whose type is a generic parameter: the filter's
/// `deinit`, compiled once for every type, then has nothing to destroy in them, where destroying a
/// generic cell of two atomics went through its value witnesses (about 440 instructions per
/// subscription).
///
/// The filter is made where the equating is made, in code compiled for the app's types. When its
/// observer is in a node's list, its check runs inside the list's loop (``ObserverStorage/call(_:with:)``,
/// through the observer's ``ObserverRecord``), which hands it the state where the loop has it: by
/// address in the library's code for a root's or a mapped node's list, or as the composition compiled
/// for a child's types has it. The check passes the state on to the projection and the handler.
/// ``observer`` is the same check as a closure, in the library's code for every state type, which
/// takes the state by address: the observer's first state, a child's observer inside its cell
/// (``NodeObservers``), even once moved into a list, a view's observer, and a props subscription's
/// dedup stage call it. Nothing in the check depends on the state's type but those two calls, so the
/// generic code looks nothing up.
@usableFromInline
final class AtomicProjectionFilter<State>: Sendable {
    /// The state's projection, as an `Int`.
    @usableFromInline
    let project: @Sendable (State) -> Int

    /// What a state that is not a duplicate goes on to.
    @usableFromInline
    let handler: @Sendable (State) -> Void

    /// The gate `handler` is called through, which the subscription's token closes.
    @usableFromInline
    let gate: CallGate

    /// The last projection let through; meaningful once ``isSet``.
    @usableFromInline
    let last = Atomic<Int>(0)

    /// Whether a projection was let through yet.
    @usableFromInline
    let isSet = Atomic<Bool>(false)

    @inlinable
    init(
        project: @escaping @Sendable (State) -> Int,
        gate: CallGate,
        handler: @escaping @Sendable (State) -> Void
    ) {
        self.project = project
        self.gate = gate
        self.handler = handler
    }

    /// The check as a closure: ``check(_:)``, in the library's code for every state type, for the calls
    /// that do not run it in a list's loop (see above).
    @usableFromInline
    var observer: @Sendable (State) -> ObserverStatus {
        check
    }

    /// Calls `handler` with `state`, through the gate, unless its projection equals the last projection
    /// let through, which it then becomes. Answers `.dead` for a state that passes once the gate is
    /// closed, `.active` otherwise.
    ///
    /// Inlined into a node's observer loop (``ObserverStorage/call(_:with:)``), where the state is
    /// at hand by address and the loop's registers are already saved.
    @inlinable
    @inline(__always)
    func check(_ state: State) -> ObserverStatus {
        let value = project(state)
        // The value first: a state that passes, which differs from the last one, skips the flag.
        if last.load(ordering: .relaxed) == value, isSet.load(ordering: .relaxed) {
            return .active
        }
        last.store(value, ordering: .relaxed)
        isSet.store(true, ordering: .relaxed)
        return gate.withCall { handler(state) } ? .active : .dead
    }
}
