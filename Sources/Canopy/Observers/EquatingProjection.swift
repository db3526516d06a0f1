public import Synchronization

/// The projection an ``Equating`` made by ``Equating/keyPath(_:)`` or ``Equating/equal(value:)`` compares:
/// one object that both its predicate and its dedup check hold.
///
/// Each of those closures captures only this object, which is then the closure's context, so making an
/// equating allocates this one object (and the projection's own context, if any) rather than a context
/// per closure.
@usableFromInline
final class EquatingProjection<State, Value: Equatable & Sendable>: Sendable {
    @usableFromInline
    let project: @Sendable (State) -> Value

    @inlinable
    init(_ project: @escaping @Sendable (State) -> Value) {
        self.project = project
    }

    /// Whether the two states have equal projections: the equating's predicate.
    @inlinable
    func isDuplicate(_ lhs: State, _ rhs: State) -> Bool {
        project(lhs) == project(rhs)
    }

    /// The dedup check of one subscription, in front of `handler`, which it calls through `gate`
    /// (``Equating/makeCheck``), for a projection that is not ``isCountable``: the last projection let
    /// through is kept under a lock (``ProjectionFilter``). A projection to an `Int` or a `Bool`, the
    /// commonest, is kept in atomics instead (``makeCountedFilter(gate:handler:)``), which cost a load or
    /// two where a lock costs about 20 instructions.
    ///
    /// The observer's closure has one capture, the filter, which is then the closure's context, so
    /// nothing more is allocated for it, and each call reads one pointer.
    @inlinable
    func makeCheck(
        gate: CallGate,
        handler: @escaping @Sendable (State) -> Void
    ) -> @Sendable (State) -> ObserverStatus {
        let filter = ProjectionFilter<State, Mutex<RememberedProjection<Value>>>(
            project: project,
            gate: gate,
            handler: handler
        )
        return { filter.check($0) }
    }

    /// The dedup check of one subscription for a projection that ``isCountable`` (``Equating/makeFilter``):
    /// the projection converted to an `Int`. An equating made for an `Int` or a `Bool` key path
    /// (`Equating.keyPath(_:)`'s overloads for them) has a ``CountedProjection`` instead, which needs no
    /// conversion.
    @inlinable
    func makeCountedFilter(
        gate: CallGate,
        handler: @escaping @Sendable (State) -> Void
    ) -> AtomicProjectionFilter<State> {
        let project = self.project
        return AtomicProjectionFilter<State>(project: { Self.count(project($0)) }, gate: gate, handler: handler)
    }

    /// Whether a `Value` can be kept as an `Int` (``count(_:)``): an `Int` or a `Bool`.
    @inlinable
    static var isCountable: Bool {
        Value.self == Int.self || Value.self == Bool.self
    }

    /// `projection` as an `Int` that is equal for equal projections. The casts are to the type it is:
    /// compiled for that type, where the equating is made, they cost nothing.
    @inlinable
    static func count(_ projection: Value) -> Int {
        if let value = projection as? Int {
            return value
        }
        if let value = projection as? Bool {
            return value ? 1 : 0
        }
        preconditionFailure("Internal inconsistency: a \(Value.self) kept as an Int")
    }
}
