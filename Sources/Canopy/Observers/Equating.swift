/// Decides whether two states are duplicates, so a subscriber can skip the second one.
///
/// `true` means *treat as duplicate*. The first state a subscriber sees always passes.
///
/// ```swift
/// let sameCount = Equating<Counter>.keyPath(\.count)
/// let sameCountAndTitle = sameCount && .keyPath(\.title)
/// ```
///
/// The factories are `@inlinable`: a subscriber calls its predicate for every state, and compiled in the
/// caller's module the comparison is specialised for the concrete state type (see Docs/Performance.md,
/// W2).
public struct Equating<T>: Sendable {
    /// Returns `true` when the second state is a duplicate of the first.
    public let predicate: @Sendable (T, T) -> Bool

    /// For an equating that compares one projection of the state (``keyPath(_:)``, ``equal(value:)``)
    /// of a type other than `Int` or `Bool`: makes the dedup check of one subscription, as the closure
    /// its node calls with each state. The check projects the state once, compares the projection with
    /// the last one let through, kept under an uncontended lock, and calls `handler`, through `gate`,
    /// only with a state that differs; it answers `.dead` for a state that passes once the gate is
    /// closed, and `.active` otherwise. `nil` for the other equatings (``check(gate:handler:)`` makes
    /// any equating's check).
    ///
    /// Made where the equating is made, by an inlinable factory, so that the filter's type is known
    /// there: a duplicate costs a call of the check, one of the projection and a comparison, with no
    /// allocation; a state that passes, the gate's two atomic exchanges around the handler's call.
    @usableFromInline
    let makeCheck:
        (@Sendable (_ gate: CallGate, _ handler: @escaping @Sendable (T) -> Void) -> @Sendable (T) -> ObserverStatus)?

    /// For an equating that compares a projection to an `Int` or a `Bool`: makes the dedup check of one
    /// subscription as a filter that keeps the last projection in atomics. A node's list runs it in
    /// its loop (``ObserverRecord``); elsewhere it is called as a closure
    /// (``AtomicProjectionFilter/observer``). `nil` for the other equatings.
    @usableFromInline
    let makeFilter:
        (@Sendable (_ gate: CallGate, _ handler: @escaping @Sendable (T) -> Void) -> AtomicProjectionFilter<T>)?

    /// Creates an equating from a predicate.
    ///
    /// - Parameter predicate: Returns `true` when the two states are duplicates.
    public init(predicate: @escaping @Sendable (T, T) -> Bool) {
        self.predicate = predicate
        self.makeCheck = nil
        self.makeFilter = nil
    }

    @inlinable
    init<Value: Equatable & Sendable>(projection project: @escaping @Sendable (T) -> Value) {
        let projection = EquatingProjection(project)
        self.predicate = { projection.isDuplicate($0, $1) }
        if EquatingProjection<T, Value>.isCountable {
            self.makeCheck = nil
            self.makeFilter = { projection.makeCountedFilter(gate: $0, handler: $1) }
        } else {
            self.makeCheck = { projection.makeCheck(gate: $0, handler: $1) }
            self.makeFilter = nil
        }
    }

    /// An equating that compares a projection to an `Int` (a `Bool` counted as 0 or 1), whose dedup
    /// check keeps the last projection in atomics and calls `project` as it is.
    @inlinable
    init(countedProjection project: @escaping @Sendable (T) -> Int) {
        let projection = CountedProjection(project)
        self.predicate = { projection.isDuplicate($0, $1) }
        self.makeCheck = nil
        self.makeFilter = { projection.makeFilter(gate: $0, handler: $1) }
    }

    /// The dedup check of one subscription as a closure, made by whichever factory the equating has
    /// (``makeFilter``, ``makeCheck``); `nil`, with no gate made, when only the predicate is known.
    @usableFromInline
    func check(
        gate: @autoclosure () -> CallGate,
        handler: @escaping @Sendable (T) -> Void
    ) -> (@Sendable (T) -> ObserverStatus)? {
        if let makeFilter {
            return makeFilter(gate(), handler).observer
        }
        return makeCheck?(gate(), handler)
    }

    /// Never treats a state as a duplicate: every state passes.
    public static var neverEqual: Equating<T> {
        Equating { _, _ in false }
    }

    /// Treats every state as a duplicate: only the first state passes.
    public static var alwaysEqual: Equating<T> {
        Equating { _, _ in true }
    }

    /// Treats two states as duplicates when `value` gives equal results for both.
    ///
    /// - Parameter value: Extracts the part of the state that matters.
    /// - Returns: An equating that compares the extracted values.
    @inlinable
    public static func equal<Value: Equatable & Sendable>(value: @escaping @Sendable (T) -> Value) -> Equating<T> {
        Equating(projection: value)
    }

    /// Treats two states as duplicates when they agree at `keyPath`.
    ///
    /// - Parameter keyPath: The part of the state to compare.
    /// - Returns: An equating that compares the values at `keyPath`.
    @inlinable
    public static func keyPath<Value: Equatable & Sendable>(_ keyPath: any KeyPath<T, Value> & Sendable) -> Equating<T>
    {
        Equating(projection: { $0[keyPath: keyPath] })
    }

    /// Treats two states as duplicates when they agree at `keyPath`, an `Int`.
    ///
    /// The same as the generic `keyPath(_:)`; for an `Int` the check compares the values as they are read,
    /// with nothing converted in between.
    ///
    /// - Parameter keyPath: The part of the state to compare.
    /// - Returns: An equating that compares the values at `keyPath`.
    @inlinable
    public static func keyPath(_ keyPath: any KeyPath<T, Int> & Sendable) -> Equating<T> {
        Equating(countedProjection: { $0[keyPath: keyPath] })
    }

    /// Treats two states as duplicates when they agree at `keyPath`, a `Bool`.
    ///
    /// The same as the generic `keyPath(_:)`; for a `Bool` the check compares the values as 0 or 1.
    ///
    /// - Parameter keyPath: The part of the state to compare.
    /// - Returns: An equating that compares the values at `keyPath`.
    @inlinable
    public static func keyPath(_ keyPath: any KeyPath<T, Bool> & Sendable) -> Equating<T> {
        Equating(countedProjection: { $0[keyPath: keyPath] ? 1 : 0 })
    }

    /// Treats two states as duplicates when every equating in `sequence` does.
    ///
    /// An empty sequence treats every state as a duplicate, like ``alwaysEqual``.
    ///
    /// - Parameter sequence: The equatings to combine.
    /// - Returns: An equating that is `true` only when all of them are.
    public static func with<Equatings: Sequence>(_ sequence: Equatings) -> Equating<T>
    where Equatings.Element == Equating<T> {
        let predicates = sequence.map(\.predicate)
        return Equating { lhs, rhs in predicates.allSatisfy { $0(lhs, rhs) } }
    }

    /// Treats two states as duplicates when both equatings do.
    ///
    /// - Parameters:
    ///   - lhs: The first equating, asked first.
    ///   - rhs: The second equating, asked only when the first says duplicate.
    /// - Returns: The combined equating.
    @inlinable
    public static func && (lhs: Equating<T>, rhs: Equating<T>) -> Equating<T> {
        Equating { lhs.predicate($0, $1) && rhs.predicate($0, $1) }
    }
}

extension Equating where T: Equatable & Sendable {
    /// Treats two states as duplicates when they are equal.
    @inlinable
    public static var asEquatable: Equating<T> {
        Equating { $0 == $1 }
    }
}

extension Equating where T: Identifiable & Sendable {
    /// Treats two states as duplicates when they have the same `id`.
    @inlinable
    public static var asIdentifiable: Equating<T> {
        Equating { $0.id == $1.id }
    }
}
