/// Finds `==` for a type when it is `Equatable`, once per type, so that code generic over an
/// unconstrained type can compare values without a dynamic cast per comparison.
enum Equality {
    /// The comparators found so far, by type. A node asks once, when it is made; sharing the closure
    /// keeps it from costing every node an allocation.
    private static let found = LockedValue<[ObjectIdentifier: any Sendable]>([:])

    /// The comparator found for `Value`, or `nil` for a type that is not `Equatable`. A class, so that
    /// reading it back from the table is a class cast: casting the closure itself back out of `any Sendable`
    /// wrapped it in a new 40-byte context for each node.
    private final class Found<Value>: Sendable {
        let comparator: Comparator<Value>?

        init(_ comparator: Comparator<Value>?) {
            self.comparator = comparator
        }
    }

    /// `==` for one type, shared by every node of that type: a node keeps an 8-byte reference to it
    /// rather than the 16 bytes of the closure.
    final class Comparator<Value>: Sendable {
        let isEqual: @Sendable (Value, Value) -> Bool

        init(_ isEqual: @escaping @Sendable (Value, Value) -> Bool) {
            self.isEqual = isEqual
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
                Comparator(comparator(opening: equatable, as: Value.self))
            } else {
                nil
            }
        found.withLock { $0[key] = Found(comparator) }
        return comparator
    }

    private static func comparator<Opened: Equatable, Value>(
        opening _: Opened.Type,
        as _: Value.Type
    ) -> @Sendable (Value, Value) -> Bool {
        let isEqual: (Opened, Opened) -> Bool = { $0 == $1 }
        // Safety: `Opened` is `Value` itself (it was opened from `Value.self`), so the two function
        // types are the same type; both take generic parameters, so their calling conventions match.
        // The closure captures nothing but the type's metadata, which never changes, so it may be
        // called from any thread (`@Sendable` does not change the representation).
        return unsafeBitCast(isEqual, to: (@Sendable (Value, Value) -> Bool).self)
    }
}
