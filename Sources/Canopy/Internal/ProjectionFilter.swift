/// Lets a state through unless its projection equals the projection of the last state let through; the
/// first always passes. One per subscriber, used only on its tree's queue.
///
/// It backs ``Equating/keyPath(_:)`` and ``Equating/equal(value:)`` when they deduplicate a subscription:
/// keeping the last accepted *projection* reads the key path once per state, where comparing the last
/// state with the new one through the predicate reads it twice.
@usableFromInline
// Safety: Sendable by hand: its one `var` is confined to the subscribing tree's queue (note below).
final class ProjectionFilter<State, Value: Equatable>: @unchecked Sendable {
    // Safety: `last` is read and written only in `accepts`, which runs only on the subscribing tree's
    // serial queue: a subscription calls it from its observer, directly or through its
    // `StateDeduplicator` (see `StateDeduplicator.filter`); each filter is made by
    // `Equating.makeFilter` for one subscription alone. The queue serialises every access and
    // no access spans a call out other than `project`, which cannot reach the filter, so the dynamic
    // exclusivity check is skipped.
    @usableFromInline
    let project: @Sendable (State) -> Value

    // Safety: only `accepts` touches it, on the tree's queue, with no call out during the access.
    @usableFromInline
    @exclusivity(unchecked) var last: Value?

    @inlinable
    init(project: @escaping @Sendable (State) -> Value) {
        self.project = project
    }

    /// Whether `state` passes; if it does, its projection is what later states are compared with.
    @inlinable
    func accepts(_ state: State) -> Bool {
        let value = project(state)
        if let last, last == value {
            return false
        }
        last = value
        return true
    }
}
