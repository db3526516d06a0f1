/// The stores an app shares between its screens, such as the root of its store tree.
///
/// Add an entry with a ``DependencyKey`` whose value is a store, and a computed property in an
/// extension; read it with `@StoreOf(\.name)` or `SharedStores[\.name]`, and make a child of it with
/// ``StoreOf/with(_:reducer:)``. Tests replace entries for one scope with
/// ``withSharedStores(_:operation:)``.
///
/// ```swift
/// struct RootStoreKey: DependencyKey {
///     static let defaultValue = StateStore<AppState, AppAction>(AppState()) { state, action in
///         state.reduce(action)
///     }
/// }
///
/// extension SharedStores {
///     var root: StateStore<AppState, AppAction> {
///         get { self[RootStoreKey.self] }
///         set { self[RootStoreKey.self] = newValue }
///     }
/// }
///
/// let profile = StoreOf(\.root).with(ProfileState()) { state, action in state.reduce(action) }
/// ```
///
/// Give the key a `static let` default: it makes the store once, on first use.
public struct SharedStores: Sendable {
    var entries = EntryTable()

    init() {}

    /// The store of the entry `key`, or the key's default value if none is set.
    ///
    /// Entries' computed properties forward to it:
    ///
    /// ```swift
    /// var root: StateStore<AppState, AppAction> {
    ///     get { self[RootStoreKey.self] }
    ///     set { self[RootStoreKey.self] = newValue }
    /// }
    /// ```
    ///
    /// - Parameter key: The entry's key type.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    /// The store of the entry at `keyPath` in force here; setting it changes it app-wide.
    ///
    /// Reading gives the innermost ``withSharedStores(_:operation:)`` scope's store, or the app-wide
    /// one outside any scope. Setting is for the app's set-up, and traps inside a scope that overrides
    /// shared stores.
    ///
    /// ```swift
    /// SharedStores[\.root] = StateStore(AppState()) { state, action in state.reduce(action) }
    /// let root = SharedStores[\.root]
    /// ```
    ///
    /// - Parameter keyPath: The entry's computed property.
    public static subscript<Value>(keyPath: WritableKeyPath<SharedStores, Value>) -> Value {
        get { read(keyPath) }
        set { write(keyPath, newValue) }
    }
}

extension SharedStores: EntryContainer {
    static let live = LockedValue(SharedStores())
    static let writeSyntax = "SharedStores[\\.entry] = store"

    static var scoped: WritableKeyPath<DependencyScope, SharedStores?> {
        \.stores
    }
}
