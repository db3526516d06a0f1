/// Finds `==` for a type when it is `Equatable`, once per type, so that code generic over an
/// unconstrained type can compare values without a dynamic cast per comparison.
enum Equality {
    /// The comparators found so far, by type. A node asks once, when it is made; sharing the comparator
    /// keeps it from costing every node an allocation.
    private static let found = LockedValue<[ObjectIdentifier: any Sendable]>([:])

    /// The comparator found for `Value`, or `nil` for a type that is not `Equatable`: the table keeps
    /// the answer for those types too, so that they are not cast again.
    private final class Found<Value>: Sendable {
        let comparator: Comparator<Value>?

        init(_ comparator: Comparator<Value>?) {
            self.comparator = comparator
        }
    }

    /// `==` for one type, shared by every node of that type: a node keeps an 8-byte reference to it.
    ///
    /// A class whose method a subclass that knows the type is `Equatable` overrides, rather than a
    /// stored closure: the engine calls it through the class's table, with no closure context to load,
    /// retain and release, and no partial application in between.
    class Comparator<Value>: @unchecked Sendable {
        // Safety: no stored properties, here or in the subclass; the initialiser is `fileprivate`, so no
        // other subclass can add any.

        fileprivate init() {}

        /// Whether `lhs == rhs`.
        func isEqual(_ lhs: Value, _ rhs: Value) -> Bool {
            preconditionFailure("Internal inconsistency: \(type(of: self)) does not compare")
        }
    }

    /// The comparator of an `Equatable` type.
    private final class EquatableComparator<Compared: Equatable>: Comparator<Compared>, @unchecked Sendable {
        // Safety: no stored properties.

        override func isEqual(_ lhs: Compared, _ rhs: Compared) -> Bool {
            lhs == rhs
        }
    }

    /// `==` for `Value` when `Value` is `Equatable` and plain data (no references inside), otherwise
    /// `nil`.
    ///
    /// The engine compares a node's state before and after its reducer to skip children whose input did
    /// not change. Keeping the "before" copy of a state that holds copy-on-write storage (an array, a
    /// dictionary) would make the reducer's in-place mutation copy that storage on every action, so such
    /// states are not compared: they count as changed.
    static func cheapComparator<Value>(for type: Value.Type) -> Comparator<Value>? {
        _isPOD(Value.self) ? comparator(for: type) : nil
    }

    /// `==` for `Value`, shared, when `Value` conforms to `Equatable`, otherwise `nil`.
    static func comparator<Value>(for _: Value.Type) -> Comparator<Value>? {
        let key = ObjectIdentifier(Value.self)
        if let known = found.withLock({ $0[key] }) as? Found<Value> {
            return known.comparator
        }
        let comparator: Comparator<Value>? =
            if let equatable = Value.self as? any Equatable.Type {
                comparator(opening: equatable, as: Value.self)
            } else {
                nil
            }
        found.withLock { $0[key] = Found(comparator) }
        return comparator
    }

    private static func comparator<Opened: Equatable, Value>(
        opening _: Opened.Type,
        as _: Value.Type
    ) -> Comparator<Value> {
        // `Opened` is `Value` itself (it was opened from `Value.self`), so the comparator of `Opened` is
        // a `Comparator<Value>`: the cast, made once per type, always succeeds.
        guard let comparator = EquatableComparator<Opened>() as Comparator<Opened> as? Comparator<Value> else {
            preconditionFailure("Internal inconsistency: \(Opened.self) opened from \(Value.self) is another type")
        }
        return comparator
    }
}
