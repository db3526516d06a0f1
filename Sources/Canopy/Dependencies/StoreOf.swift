/// Reaches a store of ``SharedStores``: as a property wrapper, `@StoreOf(\.root) var root`, or as a
/// value, `StoreOf(\.root).with(…)`, to make a child of it.
///
/// The wrapper takes the store in force where it is created (a ``withSharedStores(_:operation:)``
/// scope's, or the app's) and keeps it alive, like a `StateStore` property.
///
/// ```swift
/// final class ProfileScreen {
///     @StoreOf(\.root) var root
///
///     let store = StoreOf(\.root).with(ProfileState()) { state, action in state.reduce(action) }
/// }
/// ```
@propertyWrapper
public struct StoreOf<State: Sendable, Action: Sendable>: Sendable {
    @usableFromInline
    let store: StateStore<State, Action>

    /// Creates a wrapper around the store at `keyPath`, as it is now.
    ///
    /// - Parameter keyPath: The entry's computed property on ``SharedStores``.
    public init(_ keyPath: KeyPath<SharedStores, StateStore<State, Action>>) {
        store = SharedStores.read(keyPath)
    }

    /// The shared store.
    public var wrappedValue: StateStore<State, Action> {
        store
    }

    /// Creates a child of the shared store whose state pairs the shared state with `initialState`.
    ///
    /// The same as ``StateStore/with(_:reducer:)`` on ``wrappedValue``.
    ///
    /// ```swift
    /// let profile = StoreOf(\.root).with(ProfileState()) { state, action in state.reduce(action) }
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The child's local state before any action.
    ///   - reducer: Applies one action to the local state.
    /// - Returns: A store of `(State, ChildState)` that shares the shared store's queue.
    @inlinable
    public func with<ChildState>(
        _ initialState: ChildState,
        reducer: @escaping Reducer<ChildState, Action>
    ) -> StateStore<(State, ChildState), Action> {
        store.with(initialState, reducer: reducer)
    }

    /// The store at `keyPath` in force here; setting it changes it app-wide.
    ///
    /// The same as ``SharedStores/subscript(_:)-swift.type.subscript``.
    ///
    /// ```swift
    /// StoreOf[\.root] = StateStore(AppState()) { state, action in state.reduce(action) }
    /// ```
    ///
    /// - Parameter keyPath: The entry's computed property on ``SharedStores``.
    public static subscript(keyPath: WritableKeyPath<SharedStores, StateStore<State, Action>>) -> StateStore<
        State, Action
    > {
        get { SharedStores.read(keyPath) }
        set { SharedStores.write(keyPath, newValue) }
    }
}
