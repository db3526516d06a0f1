/// The key of one entry of ``Dependencies`` or ``SharedStores``: its type and its default value.
///
/// An entry is a key type plus a computed property in an extension of the container. The property
/// forwards to the container's key subscript, so call sites read and write it by key path:
/// `Dependency[\.now]`, `$0.now = …` in ``withDependencies(_:operation:)``.
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
/// ```
///
/// Use a `static let` for ``defaultValue`` when the value is an object or a store: a `let` is made once,
/// on first use, while a computed `static var` makes a new value on every read that finds no value set.
public protocol DependencyKey {
    /// The type of the entry's value. It crosses threads, so it is `Sendable`.
    associatedtype Value: Sendable

    /// The value read when neither the app's set-up nor a scope has set one.
    static var defaultValue: Value { get }
}
