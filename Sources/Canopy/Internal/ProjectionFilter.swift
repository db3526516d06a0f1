// Public: the atomic filter's checks, compiled in the app's module, read its `Atomic` fields.
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

/// ``ProjectionFilter`` for a projection to an `Int` or a `Bool` (``fits``): the last projection let
/// through is kept in two atomics of the filter's own, the value and whether there is one yet.
///
/// Only the subscribing tree's queue uses them, one state at a time, and the queue orders its uses, so
/// relaxed loads and stores suffice: each is a plain move, where a lock costs about 20 instructions.
/// They are fields of concrete types, not a cell whose type is a generic parameter: the filter's
/// `deinit`, compiled once for every type, then has nothing to destroy in them, where destroying a
/// generic cell of two atomics went through its value witnesses (about 440 instructions per
/// subscription).
@usableFromInline
final class AtomicProjectionFilter<State, Projection: Equatable & Sendable>: Sendable {
    @usableFromInline
    let project: @Sendable (State) -> Projection

    /// What a state that is not a duplicate goes on to.
    @usableFromInline
    let handler: @Sendable (State) -> Void

    /// The gate `handler` is called through, which the subscription's token closes.
    @usableFromInline
    let gate: CallGate

    /// The last projection let through, as ``value(of:)`` gives it; meaningful once ``isSet``.
    @usableFromInline
    let last = Atomic<Int>(0)

    /// Whether a projection was let through yet.
    @usableFromInline
    let isSet = Atomic<Bool>(false)

    /// Whether the filter can keep a `Projection`: an `Int` or a `Bool`.
    @inlinable
    static var fits: Bool {
        Projection.self == Int.self || Projection.self == Bool.self
    }

    @inlinable
    init(
        project: @escaping @Sendable (State) -> Projection,
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
        let value = Self.value(of: project(state))
        if isSet.load(ordering: .relaxed), last.load(ordering: .relaxed) == value {
            return .active
        }
        last.store(value, ordering: .relaxed)
        isSet.store(true, ordering: .relaxed)
        return gate.withCall { handler(state) } ? .active : .dead
    }

    /// `projection` as the filter keeps it. The casts are to the type it is: compiled for that type,
    /// where the equating is made, they cost nothing.
    @inlinable
    static func value(of projection: Projection) -> Int {
        if let value = projection as? Int {
            return value
        }
        if let value = projection as? Bool {
            return value ? 1 : 0
        }
        preconditionFailure("Internal inconsistency: a \(Projection.self) in an atomic projection filter")
    }
}
