public import Dispatch

/// The owning handle of a store tree node: the root, or a child made with ``with(_:reducer:)``.
///
/// A `StateStore` keeps its node and all the node's ancestors alive; parents never keep children alive.
/// Every node of a tree shares the root's serial queue, which runs the reducers, the state mappings and
/// the observers. ``dispatch(_:)`` never blocks and may be called from any thread; actions sent from one
/// thread are reduced in the order they were sent.
///
/// ```swift
/// let root = StateStore<Int, Int>(0) { state, action in state += action }
/// let child = root.with("") { text, action in text = "last: \(action)" }
/// child.dispatch(1)  // runs the child's reducer, then the root's
/// ```
public struct StateStore<State: Sendable, Action: Sendable>: Store {
    let handle: any StoreHandle<State, Action>

    init(handle: any StoreHandle<State, Action>) {
        self.handle = handle
    }

    /// A child of `parent` whose state `compose` builds from the parent's state and `initialState`.
    ///
    /// ``with(_:reducer:)`` calls it with a `kind` made where it is inlined, so that building the pair,
    /// calling the observers with it and checking whether the local state changed run in code compiled
    /// for the concrete types (by the first call for these types: see ``ChildKind``).
    @usableFromInline
    init<ParentState: Sendable, ChildState: Sendable>(
        childOf parent: StateStore<ParentState, Action>,
        initialState: ChildState,
        reducer: @escaping Reducer<ChildState, Action>,
        kind: ChildKind<ParentState, ChildState, State, Action>
    ) {
        self.handle = NodeHandle(
            ChildNode(
                parent: parent.handle.nodeForChildren(),
                initialState: initialState,
                reducer: DependencyScope.capturing(reducer),
                kind: kind
            )
        )
    }

    /// Creates the root of a new store tree, with its own serial queue.
    ///
    /// The other options keep their defaults (``Options``): the wall clock, no middleware or
    /// diagnostics, and ``CycleDetection/automatic``.
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - qos: The quality of service of the tree's queue.
    ///   - reducer: Applies each action to the root state.
    @inlinable
    public init(
        _ initialState: State,
        qos: DispatchQoS = .userInteractive,
        reducer: @escaping Reducer<State, Action>
    ) {
        self.init(initialState, options: Options(qos: qos), reducer: reducer)
    }

    /// Creates the root of a new store tree whose delays (debounce, effect delays, retry backoff) go
    /// through `scheduler`.
    ///
    /// Pass a ``ManualScheduler`` in tests to move time yourself. The other options keep their
    /// defaults (``Options``).
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - qos: The quality of service of the tree's queue.
    ///   - scheduler: The clock for every delay of the tree.
    ///   - reducer: Applies each action to the root state.
    @inlinable
    public init(
        _ initialState: State,
        qos: DispatchQoS = .userInteractive,
        scheduler: any DelayScheduler,
        reducer: @escaping Reducer<State, Action>
    ) {
        self.init(initialState, options: Options(qos: qos, scheduler: scheduler), reducer: reducer)
    }

    /// The root of a new tree: ``init(_:options:reducer:)``, and so every root initializer, ends here.
    /// The public ones are inlined into the app, so that `changeCheck` is made there, compiled for the
    /// state's type.
    @usableFromInline
    init(
        root initialState: State,
        qos: DispatchQoS,
        scheduler: any DelayScheduler,
        diagnostics: (any StoreDiagnostics)?,
        cycleDetection: CycleDetection,
        reducer: @escaping Reducer<State, Action>,
        changeCheck: ChangeCheck<State, Action>?
    ) {
        // The reducer runs in the dependency scope of this call, and a test harness (`CanopyTesting`)
        // sees every action of the tree through it.
        // Not `harness?.rootReducer(scoped) ?? scoped`: an optional closure of a generic type is stored
        // reabstracted, and every call of the reducer would then pay for two conversion thunks.
        var rootReducer = DependencyScope.capturing(reducer)
        if let harness = scheduler as? any TestHarness {
            rootReducer = harness.rootReducer(rootReducer)
        }
        self.handle = NodeHandle(
            RootNode(
                initialState: initialState,
                qos: qos,
                scheduler: scheduler,
                diagnostics: diagnostics,
                cycleDetection: cycleDetection,
                reducer: rootReducer,
                changeCheck: changeCheck
            )
        )
    }

    /// Sends `action` to this store: its reducer runs, then each ancestor's, up to the root.
    ///
    /// Returns at once, from any thread. The action is reduced exactly once while the tree is alive,
    /// even when this handle is a temporary one.
    ///
    /// - Parameter action: The action to reduce.
    public func dispatch(_ action: Action) {
        handle.dispatch(action)
    }

    /// Adds `observer`, which receives the current state at once and then every new state, in order, on
    /// the store's queue, until it returns ``ObserverStatus/dead`` or the store is released.
    ///
    /// - Parameter observer: The observer; subscribing it again only re-sends the current state.
    public func subscribe(observer: Observer<State>) {
        handle.subscribe(observer)
    }

    /// Returns a type-erased handle that keeps this store alive.
    public func eraseToAnyStore() -> AnyStore<State, Action> {
        AnyStore(handle: handle)
    }

    /// Returns a handle that does not keep the store alive.
    ///
    /// Once the store is released, dispatching and subscribing through the handle do nothing.
    public func weakStore() -> AnyStore<State, Action> {
        AnyStore(handle: handle.weakHandle())
    }

    /// Creates a child store whose state pairs this store's state with `initialState`.
    ///
    /// Actions sent to the child run the child reducer, then travel up to the root. Actions sent to this
    /// store never reach the child's reducer. The child shares this store's queue, and keeps this store
    /// alive; this store does not keep the child alive.
    ///
    /// ```swift
    /// let profile = root.with(ProfileState()) { state, action in state.apply(action) }
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The child's local state before any action.
    ///   - reducer: Applies one action to the local state.
    /// - Returns: A store of `(State, ChildState)` that shares the root's queue.
    @inlinable
    public func with<ChildState>(
        _ initialState: ChildState,
        reducer: @escaping Reducer<ChildState, Action>
    ) -> StateStore<(State, ChildState), Action> {
        StateStore<(State, ChildState), Action>(
            childOf: self,
            initialState: initialState,
            reducer: reducer,
            kind: .pairing()
        )
    }

    /// Returns a store whose observers see `transform(state)`; actions go to this store unchanged.
    ///
    /// - Parameter transform: Computes the new state on the store's queue.
    /// - Returns: A view of this store; observers subscribed through it live as long as this store.
    public func map<NewState>(state transform: @escaping @Sendable (State) -> NewState) -> StateStore<NewState, Action>
    {
        StateStore<NewState, Action>(handle: ViewHandle(parent: handle, state: transform))
    }

    /// Returns a store whose observers see the value at `keyPath`.
    ///
    /// - Parameter keyPath: The part of the state to expose.
    /// - Returns: A view of this store.
    public func map<NewState>(state keyPath: any KeyPath<State, NewState> & Sendable) -> StateStore<NewState, Action> {
        map(state: { $0[keyPath: keyPath] })
    }

    /// Returns a store whose observers see `transform(state)`, an optional. It does not filter `nil`s.
    ///
    /// - Parameter transform: Computes the new state on the store's queue.
    /// - Returns: A view of this store with an optional state.
    public func flatMap<NewState>(
        state transform: @escaping @Sendable (State) -> NewState?
    ) -> StateStore<NewState?, Action> {
        map(state: transform)
    }

    /// Returns a store whose observers see the optional value at `keyPath`. It does not filter `nil`s.
    ///
    /// - Parameter keyPath: The optional part of the state to expose.
    /// - Returns: A view of this store with an optional state.
    public func flatMap<NewState>(
        state keyPath: any KeyPath<State, NewState?> & Sendable
    ) -> StateStore<NewState?, Action> {
        map(state: { $0[keyPath: keyPath] })
    }

    /// Returns a store that accepts `LocalAction`s and sends `transform(action)` to this store.
    ///
    /// - Parameter transform: Turns a local action into one of this store's actions.
    /// - Returns: A view of this store that takes `LocalAction`s.
    public func map<LocalAction>(
        actions transform: @escaping @Sendable (LocalAction) -> Action
    ) -> StateStore<State, LocalAction> {
        StateStore<State, LocalAction>(handle: ViewHandle(parent: handle, action: transform))
    }
}
