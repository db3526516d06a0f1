/// Applies one action to a state, in place.
///
/// Reducers run on the store tree's serial queue, never on the caller's thread, so they must be
/// `@Sendable`. Keep them pure: side effects belong in effects.
///
/// ```swift
/// let reducer: Reducer<Int, Int> = { state, action in state += action }
/// ```
public typealias Reducer<State, Action> = @Sendable (inout State, Action) -> Void

/// Sends an action to a store. Callable from any thread; it never blocks.
public typealias Dispatch<Action> = @Sendable (_ action: Action) -> Void
