/// The dedup check of one subscription for an equating that compares one projection of the state:
/// ``check(_:)`` lets a state through to `passed` unless its projection equals that of the last state
/// let through; the first always passes. One per subscription, called only by its node's observer, on
/// its tree's queue.
///
/// It backs ``Equating/keyPath(_:)`` and ``Equating/equal(value:)``. Keeping the last accepted
/// *projection* reads the key path once per state, where comparing the last state with the new one
/// through the predicate reads it twice. The equating makes it where it is made
/// (``Equating/makeCheck``), so ``check(_:)`` is compiled for the state's and the projection's types
/// there, and the node's observer closure calls it directly. What it remembers is a `Last`, the
/// projection's optional (``LastProjection``), which its metadata then carries for its `deinit`.
@usableFromInline
// Safety: Sendable by hand: its one `var` is confined to the subscribing tree's queue (note below).
final class ProjectionFilter<State, Last: LastProjection>: @unchecked Sendable {
    // Safety: `last` is read and written only in `check`, which runs only on the subscribing tree's
    // serial queue: it is called by the observer closure of one subscription (`Equating.makeCheck`
    // makes one filter per subscription), which the node calls only there. The queue serialises every
    // access, and no access spans a call out (`project` runs before it, `passed` after it), so the
    // dynamic exclusivity check is skipped.
    @usableFromInline
    let project: @Sendable (State) -> Last.Projection

    /// What a state that is not a duplicate goes on to: the subscription's delivery.
    @usableFromInline
    let passed: @Sendable (State) -> ObserverStatus

    // Safety: only `check` touches it, on the tree's queue, with no call out during the access.
    @usableFromInline
    @exclusivity(unchecked) var last = Last.none

    @inlinable
    init(
        project: @escaping @Sendable (State) -> Last.Projection,
        passed: @escaping @Sendable (State) -> ObserverStatus
    ) {
        self.project = project
        self.passed = passed
    }

    /// Calls `passed` with `state` unless its projection equals the last projection let through, which
    /// it then becomes; a duplicate answers `.active`.
    @inlinable
    func check(_ state: State) -> ObserverStatus {
        let value = project(state)
        if last.holds(value) {
            return .active
        }
        last = Last(value)
        return passed(state)
    }
}
