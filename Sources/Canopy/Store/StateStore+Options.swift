public import Dispatch

extension StateStore {
    /// How a root store runs: its queue's quality of service, its clock, the pipeline around its
    /// reducers, its diagnostics and its cycle detection.
    ///
    /// Every root initializer builds one of these and passes it to ``init(_:options:reducer:)``, so a
    /// root gets the same defaults whichever initializer made it; what an initializer does not take is
    /// left at its default:
    ///
    /// | Option | Default |
    /// |---|---|
    /// | ``qos`` | `.userInteractive` |
    /// | ``scheduler`` | a ``DispatchDelayScheduler`` (the wall clock) |
    /// | ``middlewares``, ``resolvers`` | none |
    /// | ``diagnostics`` | none |
    /// | ``cycleDetection`` | ``CycleDetection/automatic``: on in debug builds, off in release builds |
    ///
    /// ```swift
    /// var options = StateStore<Board, BoardAction>.Options(middlewares: [validate])
    /// options.diagnostics = logger
    /// let store = StateStore(Board(), options: options, reducer: Board.reduce)
    /// ```
    public struct Options: Sendable {
        /// The quality of service of the tree's queue.
        public var qos: DispatchQoS
        /// The clock for every delay of the tree: debounce windows, effect delays, retry backoff.
        public var scheduler: any DelayScheduler
        /// Run in order for each action, before the reducers (Docs/Pipeline.md).
        public var middlewares: [Middleware<State, Action>]
        /// Turn what a middleware throws into recovery actions, in order.
        public var resolvers: [ErrorResolver<State, Action>]
        /// The one observer of the tree's runtime events; `nil` costs nothing.
        public var diagnostics: (any StoreDiagnostics)?
        /// The limits on causal depth and frequency per action kind that are reported.
        public var cycleDetection: CycleDetection

        /// Creates options; each one left out keeps its default (see ``StateStore/Options``).
        ///
        /// - Parameters:
        ///   - qos: The quality of service of the tree's queue.
        ///   - scheduler: The clock for every delay of the tree.
        ///   - middlewares: Run in order for each action, before the reducers.
        ///   - resolvers: Turn what a middleware throws into recovery actions, in order.
        ///   - diagnostics: The one observer of the tree's runtime events.
        ///   - cycleDetection: The limits on causal depth and frequency that are reported.
        public init(
            qos: DispatchQoS = .userInteractive,
            scheduler: any DelayScheduler = DispatchDelayScheduler(),
            middlewares: [Middleware<State, Action>] = [],
            resolvers: [ErrorResolver<State, Action>] = [],
            diagnostics: (any StoreDiagnostics)? = nil,
            cycleDetection: CycleDetection = .automatic
        ) {
            self.qos = qos
            self.scheduler = scheduler
            self.middlewares = middlewares
            self.resolvers = resolvers
            self.diagnostics = diagnostics
            self.cycleDetection = cycleDetection
        }
    }

    /// Creates the root of a new store tree that runs as `options` say: every root initializer ends
    /// here.
    ///
    /// ```swift
    /// let store = StateStore(
    ///     Board(),
    ///     options: .init(scheduler: clock, middlewares: [validate], diagnostics: logger),
    ///     reducer: Board.reduce
    /// )
    /// ```
    ///
    /// Middleware and resolvers given here see every action sent to any store of the tree, from the
    /// first one on.
    ///
    /// - Parameters:
    ///   - initialState: The state before any action.
    ///   - options: The queue, clock, pipeline, diagnostics and cycle detection of the tree.
    ///   - reducer: Applies each action to the root state.
    @inlinable
    public init(_ initialState: State, options: Options, reducer: @escaping Reducer<State, Action>) {
        self.init(
            root: initialState,
            qos: options.qos,
            scheduler: options.scheduler,
            diagnostics: options.diagnostics,
            cycleDetection: options.cycleDetection,
            reducer: reducer,
            changeCheck: ChangeCheck<State, Action>.shared()
        )
        if !options.middlewares.isEmpty || !options.resolvers.isEmpty {
            use(options.middlewares, resolvers: options.resolvers)
        }
    }
}
