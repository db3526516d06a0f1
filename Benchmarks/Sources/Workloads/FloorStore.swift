import Dispatch

/// floor-sync: a state, a reducer and observer closures, called inline with no queue at all.
///
/// A value type, so a run that keeps it in a local variable pays no dynamic exclusivity check: the
/// physical floor. Not thread-safe: one thread uses it at a time (the harness's, or a floor-queue's queue).
struct FloorStore<State, Action> {
    private(set) var state: State
    private var observers: [(State) -> Void] = []
    private let reducer: (inout State, Action) -> Void

    init(_ state: State, reducer: @escaping (inout State, Action) -> Void) {
        self.state = state
        self.reducer = reducer
    }

    /// Adds `observer` and sends it the current state, as a store does.
    mutating func subscribe(_ observer: @escaping (State) -> Void) {
        observers.append(observer)
        observer(state)
    }

    // Not inlined, so the optimiser cannot fold a loop of dispatches into one addition.
    @inline(never)
    mutating func dispatch(_ action: Action) {
        reducer(&state, action)
        for observer in observers {
            observer(state)
        }
    }
}

/// floor-queue: the same store behind a bare serial `DispatchQueue`, one `async` per action.
final class FloorQueueStore<State: Sendable, Action: Sendable>: @unchecked Sendable {
    // Safety: `store` is used only inside blocks run on `queue`, a serial queue, which serialises every
    // access and orders it before any `queue.sync` that reads it back.
    private let queue: DispatchQueue
    private var store: FloorStore<State, Action>

    init(_ state: State, reducer: @escaping (inout State, Action) -> Void) {
        self.queue = DispatchQueue(label: "floor-queue", qos: .userInteractive)
        self.store = FloorStore(state, reducer: reducer)
    }

    func subscribe(_ observer: @escaping @Sendable (State) -> Void) {
        queue.async { self.store.subscribe(observer) }
    }

    func dispatch(_ action: Action) {
        queue.async { self.store.dispatch(action) }
    }

    /// Blocks until every block enqueued before has run and returns the state.
    func settledState() -> State {
        queue.sync { store.state }
    }
}
