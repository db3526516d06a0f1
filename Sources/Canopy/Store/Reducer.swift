/// Applies one action to a state, in place.
///
/// Reducers run on the store tree's serial queue, never on the caller's thread, so they must be
/// `@Sendable`. Keep them pure: side effects belong in effects.
///
/// ```swift
/// let reducer: Reducer<Int, Int> = { state, action in state += action }
/// ```
public typealias Reducer<State, Action> = @Sendable (inout State, Action) -> Void

/// Runs `reducer` on `state`. The reducer comes in `inout`, an exclusive access, so the compiler calls
/// it in place: a node that read its stored reducer as a value retained and released the closure's
/// context on every action.
///
/// A node's `reducer` is `@exclusivity(unchecked)`, so nothing checks the access at run time. It is
/// sound because the only other writer, `addAfterReduce`, runs in a work item on the tree's queue, never
/// during a reducer's call: user code on the queue cannot reach a node synchronously.
@inline(__always)
func reduceInPlace<State, Action>(_ state: inout State, _ action: Action, with reducer: inout Reducer<State, Action>) {
    reducer(&state, action)
}

/// Sends an action to a store. Callable from any thread; it never blocks.
public typealias Dispatch<Action> = @Sendable (_ action: Action) -> Void
