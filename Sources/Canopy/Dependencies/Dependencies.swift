/// The services an app reaches from anywhere: clocks, network clients, folders, feature flags.
///
/// Add an entry with a ``DependencyKey`` and a computed property in an extension; read it with
/// `Dependency[\.name]` or `@Dependency(\.name)`; set it in the app's set-up with
/// `Dependency[\.name] = value`. Tests replace entries for one scope with
/// ``withDependencies(_:operation:)``, never app-wide.
///
/// ```swift
/// struct NowKey: DependencyKey {
///     static let defaultValue: @Sendable () -> Date = { Date() }
/// }
///
/// extension Dependencies {
///     var now: @Sendable () -> Date {
///         get { self[NowKey.self] }
///         set { self[NowKey.self] = newValue }
///     }
/// }
///
/// // Set-up, once, before the app runs:
/// Dependency[\.now] = { Date() }
///
/// // Anywhere:
/// let stamp = Dependency[\.now]()
/// ```
///
/// Reads and writes are safe from any thread: the app-wide values sit behind a lock, and a read copies
/// them out before it calls the entry's getter.
public struct Dependencies: Sendable {
    var entries = EntryTable()

    init() {}

    /// The value of the entry `key`, or the key's default value if none is set.
    ///
    /// Entries' computed properties forward to it:
    ///
    /// ```swift
    /// var now: @Sendable () -> Date {
    ///     get { self[NowKey.self] }
    ///     set { self[NowKey.self] = newValue }
    /// }
    /// ```
    ///
    /// - Parameter key: The entry's key type.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get { entries[key] }
        set { entries[key] = newValue }
    }

    /// The value of the entry at `keyPath` in force here; setting it changes it app-wide.
    ///
    /// Reading gives the innermost ``withDependencies(_:operation:)`` scope's value, or the app-wide
    /// one outside any scope. Setting is for the app's set-up: it is a programming error inside a scope
    /// that overrides dependencies (the scope would not see the change), and it traps there.
    ///
    /// ```swift
    /// Dependencies[\.now] = { Date() }
    /// let now = Dependencies[\.now]
    /// ```
    ///
    /// - Parameter keyPath: The entry's computed property.
    public static subscript<Value>(keyPath: WritableKeyPath<Dependencies, Value>) -> Value {
        get { read(keyPath) }
        set { write(keyPath, newValue) }
    }
}

extension Dependencies: EntryContainer {
    static let live = LockedValue(Dependencies())
    static let writeSyntax = "Dependency[\\.entry] = value"

    static var scoped: WritableKeyPath<DependencyScope, Dependencies?> {
        \.dependencies
    }
}
