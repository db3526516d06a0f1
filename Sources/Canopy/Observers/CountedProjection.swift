/// The projection an ``Equating`` made for an `Int` or a `Bool` key path compares, as an `Int` (a `Bool`
/// counted as 0 or 1): one object that both its predicate and its dedup check hold, as
/// ``EquatingProjection`` is for other projections.
///
/// Its projection is declared returning an `Int`, as ``AtomicProjectionFilter`` keeps it: held as
/// ``EquatingProjection``'s `(State) -> Value`, whose result is returned by address, it went through a
/// conversion thunk on every state (about 13 instructions).
@usableFromInline
final class CountedProjection<State>: Sendable {
    @usableFromInline
    let project: @Sendable (State) -> Int

    @inlinable
    init(_ project: @escaping @Sendable (State) -> Int) {
        self.project = project
    }

    /// Whether the two states have equal projections: the equating's predicate.
    @inlinable
    func isDuplicate(_ lhs: State, _ rhs: State) -> Bool {
        project(lhs) == project(rhs)
    }

    /// The dedup check of one subscription, in front of `handler`, which it calls through `gate`
    /// (``Equating/makeFilter``).
    @inlinable
    func makeFilter(gate: CallGate, handler: @escaping @Sendable (State) -> Void) -> AtomicProjectionFilter<State> {
        AtomicProjectionFilter(project: project, gate: gate, handler: handler)
    }
}
