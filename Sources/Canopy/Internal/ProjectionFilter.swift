/// The last projection that one subscription's dedup check let through, for an equating that compares
/// one projection of the state: ``pass(_:_:)`` lets a state through to `passed` unless its projection
/// equals that one; the first always passes. One per subscription, used only by its node's observer, on
/// its tree's queue.
///
/// It backs ``Equating/keyPath(_:)`` and ``Equating/equal(value:)``. Keeping the last accepted
/// *projection* reads the key path once per state, where comparing the last state with the new one
/// through the predicate reads it twice. The equating's check (``Equating/makeCheck``), which projects
/// the state and calls ``pass(_:_:)``, is made where the equating is made, so this is compiled for the
/// state's and the projection's types there, inlined into that check.
@usableFromInline
// Safety: Sendable by hand: its one `var` is confined to the subscribing tree's queue (note below).
final class ProjectionFilter<State, Value: Equatable>: @unchecked Sendable {
    // Safety: `last` is read and written only in `pass`, which runs only on the subscribing tree's
    // serial queue: it is called by the observer closure of one subscription (`Equating.makeCheck` makes
    // one filter per subscription), which the node calls only there. The queue serialises every access,
    // and no access spans a call out (`passed` runs after it), so the dynamic exclusivity check is
    // skipped.

    /// What a state that is not a duplicate goes on to: the subscription's delivery.
    @usableFromInline
    let passed: @Sendable (State) -> ObserverStatus

    // Safety: only `pass` touches it, on the tree's queue, with no call out during the access.
    @usableFromInline
    @exclusivity(unchecked) var last: Value?

    @inlinable
    init(passed: @escaping @Sendable (State) -> ObserverStatus) {
        self.passed = passed
    }

    /// Calls `passed` with `state` unless `value`, its projection, equals the last projection let
    /// through, which `value` then becomes; a duplicate answers `.active`.
    @inlinable
    @inline(__always)
    func pass(_ value: Value, _ state: State) -> ObserverStatus {
        if let last, last == value {
            return .active
        }
        last = value
        return passed(state)
    }
}
