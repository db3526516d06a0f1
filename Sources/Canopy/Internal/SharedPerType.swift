/// Objects made once per generic instantiation and shared by every node of those types: the change
/// checks (``ChangeCheck``) and the children's compositions (``ChildKind``). A node asks when it is made.
///
/// Each is made where a store initializer or `with(_:reducer:)` is inlined, so, where the types are
/// known there, its closures are compiled for them; the first one made for an instantiation is the one
/// every later node of it shares, wherever that node is made.
@usableFromInline
enum SharedPerType: Sendable {
    /// What was made for an instantiation, `nil` included, so that `make` is not asked again for a type
    /// it has nothing for.
    private final class Found: Sendable {
        /// `nil`, or an instance of the class of the key it is kept under.
        let stored: (any AnyObject & Sendable)?

        init(_ stored: (any AnyObject & Sendable)?) {
            self.stored = stored
        }
    }

    private static let found = LockedValue<[ObjectIdentifier: Found]>([:])

    /// The object kept for `Shared`, a generic class's instantiation, made by `make` the first time.
    @usableFromInline
    static func shared<Shared: AnyObject & Sendable>(_: Shared.Type, make: () -> Shared?) -> Shared? {
        // Each instantiation of a generic class has its own metadata, so its identity is the key.
        let key = ObjectIdentifier(Shared.self)
        if let known = found.withLock({ $0[key] }) {
            return typed(known, Shared.self)
        }
        let made = make()
        return found.withLock { table in
            // Another thread may have made one meanwhile: the first one kept is the one shared.
            if let known = table[key] {
                return typed(known, Shared.self)
            }
            table[key] = Found(made)
            return made
        }
    }

    /// The object in `found`, kept under the key of `Shared`, as a `Shared`.
    private static func typed<Shared: AnyObject>(_ found: Found, _: Shared.Type) -> Shared? {
        guard let stored = found.stored else { return nil }
        // The table keeps under the key of a class only an instance of that class.
        guard let shared = stored as? Shared else {
            preconditionFailure("Internal inconsistency: a \(type(of: stored)) was kept for \(Shared.self)")
        }
        return shared
    }
}
