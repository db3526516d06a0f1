/// Reads an entry of ``Dependencies``: as a property wrapper, `@Dependency(\.now) var now`, or
/// directly, `Dependency[\.now]`.
///
/// The wrapper reads the entry each time the property is used, so it sees the value in force where the
/// read runs: a ``withDependencies(_:operation:)`` scope's, or the app's.
///
/// ```swift
/// struct Stamp {
///     @Dependency(\.now) var now
///
///     func make() -> Date { now() }
/// }
///
/// Dependency[\.now] = { Date(timeIntervalSince1970: 0) }  // the app's set-up
/// let now = Dependency[\.now]
/// ```
@propertyWrapper
public struct Dependency<Value>: Sendable {
    private let keyPath: any KeyPath<Dependencies, Value> & Sendable

    /// Creates a wrapper that reads the entry at `keyPath`.
    ///
    /// - Parameter keyPath: The entry's computed property on ``Dependencies``.
    public init(_ keyPath: any KeyPath<Dependencies, Value> & Sendable) {
        self.keyPath = keyPath
    }

    /// The entry's value in force here.
    public var wrappedValue: Value {
        Dependencies.read(keyPath)
    }

    /// The value of the entry at `keyPath` in force here; setting it changes it app-wide.
    ///
    /// The same as ``Dependencies/subscript(_:)-swift.type.subscript``: set entries in the app's set-up, and override
    /// them in tests with ``withDependencies(_:operation:)``.
    ///
    /// ```swift
    /// Dependency[\.now] = { Date() }
    /// let now = Dependency[\.now]
    /// ```
    ///
    /// - Parameter keyPath: The entry's computed property on ``Dependencies``.
    public static subscript(keyPath: WritableKeyPath<Dependencies, Value>) -> Value {
        get { Dependencies.read(keyPath) }
        set { Dependencies.write(keyPath, newValue) }
    }
}
