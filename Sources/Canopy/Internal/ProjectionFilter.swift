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
/// calls it directly. It remembers the last projection in a `Last` cell: atomics for an `Int` or a
/// `Bool`, a `Mutex` otherwise, whose type its metadata then carries for its `init` and `deinit`
/// (``LastProjectionCell``).
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
