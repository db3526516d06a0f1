/// A type-erased store handle.
///
/// Made by ``StateStore/eraseToAnyStore()``, which keeps the store alive, or by
/// ``StateStore/weakStore()``, which does not (then dispatching or subscribing after the store is gone
/// does nothing).
///
/// ```swift
/// let counter: AnyStore<Int, Int> = root.map(state: \.count).eraseToAnyStore()
/// ```
public struct AnyStore<State: Sendable, Action: Sendable>: Store {
    let handle: any StoreHandle<State, Action>

    /// Sends `action` to the store; see ``StateStore/dispatch(_:)``.
    ///
    /// - Parameter action: The action to reduce.
    public func dispatch(_ action: Action) {
        handle.dispatch(action)
    }

    /// Adds `observer`; see ``StateStore/subscribe(observer:)``.
    ///
    /// - Parameter observer: The observer to add.
    public func subscribe(observer: Observer<State>) {
        handle.subscribe(observer)
    }

    /// Returns this handle.
    public func eraseToAnyStore() -> AnyStore<State, Action> {
        self
    }

    /// Returns a store whose observers see `transform(state)`; actions go to this store unchanged.
    ///
    /// - Parameter transform: Computes the new state on the store's queue.
    /// - Returns: A view of this store; observers subscribed through it live as long as this store.
    public func map<NewState>(state transform: @escaping @Sendable (State) -> NewState) -> AnyStore<NewState, Action> {
        AnyStore<NewState, Action>(handle: ViewHandle(parent: handle, state: transform))
    }

    /// Returns a store whose observers see the value at `keyPath`.
    ///
    /// - Parameter keyPath: The part of the state to expose.
    /// - Returns: A view of this store.
    public func map<NewState>(state keyPath: any KeyPath<State, NewState> & Sendable) -> AnyStore<NewState, Action> {
        map(state: { $0[keyPath: keyPath] })
    }

    /// Returns a store whose observers see `transform(state)`, an optional. It does not filter `nil`s.
    ///
    /// - Parameter transform: Computes the new state on the store's queue.
    /// - Returns: A view of this store with an optional state.
    public func flatMap<NewState>(
        state transform: @escaping @Sendable (State) -> NewState?
    ) -> AnyStore<NewState?, Action> {
        map(state: transform)
    }

    /// Returns a store whose observers see the optional value at `keyPath`. It does not filter `nil`s.
    ///
    /// - Parameter keyPath: The optional part of the state to expose.
    /// - Returns: A view of this store with an optional state.
    public func flatMap<NewState>(
        state keyPath: any KeyPath<State, NewState?> & Sendable
    ) -> AnyStore<NewState?, Action> {
        map(state: { $0[keyPath: keyPath] })
    }

    /// Returns a store that accepts `LocalAction`s and sends `transform(action)` to this store.
    ///
    /// - Parameter transform: Turns a local action into one of this store's actions.
    /// - Returns: A view of this store that takes `LocalAction`s.
    public func map<LocalAction>(
        actions transform: @escaping @Sendable (LocalAction) -> Action
    ) -> AnyStore<State, LocalAction> {
        AnyStore<State, LocalAction>(handle: ViewHandle(parent: handle, action: transform))
    }
}
