/// A store: something you can send actions to and observe states of.
///
/// ``StateStore`` and ``AnyStore`` conform. Every member may be called from any thread.
public protocol Store<State, Action>: Sendable {
    /// The state observers receive.
    associatedtype State
    /// The actions the store accepts.
    associatedtype Action

    /// Sends `action` to the store. Returns at once; the action is reduced later, on the store's queue.
    ///
    /// - Parameter action: The action to reduce.
    func dispatch(_ action: Action)

    /// Adds `observer`, which receives the current state at once and then every new state, on the
    /// store's queue.
    ///
    /// - Parameter observer: The observer to add; an observer with the same id is not added twice.
    func subscribe(observer: Observer<State>)

    /// Returns a type-erased handle to this store.
    func eraseToAnyStore() -> AnyStore<State, Action>
}
