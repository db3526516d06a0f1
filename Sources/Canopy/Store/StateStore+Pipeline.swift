public import Dispatch

extension StateStore {
    /// Creates the root of a new store tree whose actions pass through `middlewares` before any reducer
    /// of the tree runs.
    ///
    /// Middleware attached here sees every action sent to any store of the tree (as far as the action
    /// type stays the same: a `map(actions:)` translation hides actions below it), in the order given.
    /// Docs/Pipeline.md describes the whole pipeline. The same as ``init(_:options:reducer:)`` with these
    /// ``Options``, and the same defaults.
    ///
    /// ```swift
    /// let store = StateStore<Board, BoardAction>(
    ///     Board(),
    ///     middlewares: [.init("validate") { action, context in
    ///         if case .add(let title) = action, title.isEmpty { return }  // blocked
    ///         context.next(action)
    ///     }],
    ///     reducer: Board.reduce
    /// )
    /// ```
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - qos: The quality of service of the tree's queue.
    ///   - scheduler: The clock for every delay of the tree.
    ///   - middlewares: Run in order for each action, before the reducers.
    ///   - resolvers: Turn what a middleware throws into recovery actions, in order.
    ///   - diagnostics: The one observer of the tree's runtime events; `nil` costs nothing.
    ///   - cycleDetection: The limits on causal depth and frequency per action kind that are reported.
    ///   - reducer: Applies each action to the root state.
    @inlinable
    public init(
        _ initialState: State,
        qos: DispatchQoS = .userInteractive,
        scheduler: any DelayScheduler = DispatchDelayScheduler(),
        middlewares: [Middleware<State, Action>],
        resolvers: [ErrorResolver<State, Action>] = [],
        diagnostics: (any StoreDiagnostics)? = nil,
        cycleDetection: CycleDetection = .automatic,
        reducer: @escaping Reducer<State, Action>
    ) {
        self.init(
            initialState,
            options: Options(
                qos: qos,
                scheduler: scheduler,
                middlewares: middlewares,
                resolvers: resolvers,
                diagnostics: diagnostics,
                cycleDetection: cycleDetection
            ),
            reducer: reducer
        )
    }

    /// Attaches `middleware` to this store, after the middleware attached before.
    ///
    /// On the root it sees every action of the tree; on a child, the actions sent to the child and to
    /// its descendants, after the root's middleware. It is attached on the tree's queue, in order with
    /// the actions: actions dispatched from this thread after the call pass through it; those dispatched
    /// before do not. The call returns at once; `_ = await store.state` returns once it is attached.
    ///
    /// Attaching rebuilds this store's chain: what its middleware keeps starts afresh (a throttle's last
    /// time), and an action a debounce holds is dropped. Attach rate limits when the store is made.
    ///
    /// ```swift
    /// tasks.use(.throttle({ $0 == .sync }, for: 1))
    /// ```
    ///
    /// - Parameter middleware: The middleware to add.
    /// - Returns: This store.
    @discardableResult
    public func use(_ middleware: Middleware<State, Action>) -> Self {
        use([middleware], resolvers: [])
    }

    /// Attaches `middlewares` and `resolvers` to this store, after those attached before.
    ///
    /// - Parameters:
    ///   - middlewares: The middleware to add, in order.
    ///   - resolvers: The error resolvers to add, in order.
    /// - Returns: This store.
    @discardableResult
    public func use(
        _ middlewares: [Middleware<State, Action>],
        resolvers: [ErrorResolver<State, Action>] = []
    ) -> Self {
        guard let node = handle.stateNode else {
            preconditionFailure(
                "use(_:) was called on a map(state:), flatMap(state:) or map(actions:) store; attach middleware "
                    + "to the store it views"
            )
        }
        // They run in the dependency scope of this call, like the store's reducer (see `DependencyScope`).
        var middlewares = middlewares
        var resolvers = resolvers
        if let scope = DependencyScope.current {
            middlewares = middlewares.map { $0.running(in: scope) }
            resolvers = resolvers.map { $0.running(in: scope) }
        }
        node.enqueueWork { [middlewares, resolvers] in node.withNode { $0.use(middlewares, resolvers: resolvers) } }
        return self
    }

    /// This store's place in its tree: the child indices from the root down (`root/1/0`), the same for
    /// a tree built the same way. Middleware sees it as ``MiddlewareContext/target``; an action log
    /// records it. A view has the ID of the store it views.
    public var storeID: StoreID {
        handle.storeID
    }

    /// Sends `action` to this store and calls `completion` once with what became of it: the state right
    /// after it was reduced, `.blocked` when a middleware did not pass it on, or `.failed` with what a
    /// middleware threw.
    ///
    /// `completion` runs on the store's queue, right after the action was handled.
    ///
    /// ```swift
    /// store.dispatch(.add("Buy milk")) { outcome in
    ///     if case .blocked = outcome { print("not added") }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - completion: Receives the outcome, on the store's queue.
    public func dispatch(
        _ action: Action,
        completion: @escaping @Sendable (DispatchOutcome<State>) -> Void
    ) {
        handle.dispatch(action, entry: EntryContext(), completion: completion)
    }
}

extension AnyStore {
    /// This store's place in its tree; see ``StateStore/storeID``.
    public var storeID: StoreID {
        handle.storeID
    }

    /// Sends `action` and calls `completion` once with what became of it; see
    /// ``StateStore/dispatch(_:completion:)``. Through a weak handle whose store is gone, the outcome is
    /// `.failed` with ``StoreReleasedError``.
    ///
    /// - Parameters:
    ///   - action: The action to send.
    ///   - completion: Receives the outcome, on the store's queue (or at once when the store is gone).
    public func dispatch(
        _ action: Action,
        completion: @escaping @Sendable (DispatchOutcome<State>) -> Void
    ) {
        handle.dispatch(action, entry: EntryContext(), completion: completion)
    }
}
