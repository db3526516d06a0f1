/// The values set in a ``Dependencies`` or ``SharedStores`` container, by key type.
///
/// A key with no value set reads as its `defaultValue`.
struct EntryTable: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get {
            // Only the setter writes under `ObjectIdentifier(key)`, and always a `Key.Value`.
            guard let value = values[ObjectIdentifier(key)] as? Key.Value else { return Key.defaultValue }
            return value
        }
        set {
            values[ObjectIdentifier(key)] = newValue
        }
    }
}
