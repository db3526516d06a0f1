/// Finds `==` for a type when it is `Equatable`, once, so that code generic over an unconstrained type
/// can compare values without a dynamic cast per comparison.
enum Equality {
    /// `==` for `Value` when `Value` conforms to `Equatable`, otherwise `nil`.
    static func comparator<Value>(for _: Value.Type) -> (@Sendable (Value, Value) -> Bool)? {
        guard let equatable = Value.self as? any Equatable.Type else { return nil }
        return comparator(opening: equatable, as: Value.self)
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
