public import Dispatch

extension StateStore {
    /// Runs the effect `create` returns once per attempt of the ``Effect/State`` at `keyPath`.
    ///
    /// On each state, on the store's queue: when the effect state is in progress with an attempt
    /// identity not seen before (after ``Effect/State/run(maxAttempts:delay:)``,
    /// ``Effect/State/restart(maxAttempts:delay:)`` or a retry), `create` is called and its effect runs
    /// on `queue` after ``Effect/State/delay`` seconds. `run()` while running starts nothing new. When
    /// the effect state leaves in progress, restarts or retries, the current run is cancelled: its
    /// pending delay is dropped, its task is cancelled, and the actions it dispatches afterwards are
    /// not reduced. Idle, succeeded, failed and cancelled states start nothing.
    ///
    /// The engine lives as long as this store: releasing the store cancels every run.
    ///
    /// ```swift
    /// store.effect(\.load, on: .main) { state, dispatch in
    ///     Effect {
    ///         let items = try await api.items(page: state.page)
    ///         dispatch(.loaded(items))
    ///     } catch: { error in
    ///         dispatch(.loadFailed(error))  // the reducer calls state.load.retryOrFailWith(error)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: Where the state keeps the ``Effect/State``.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results;
    ///     returns the effect, or ``Effect/postpone`` to be asked again on a later state.
    /// - Returns: This store.
    @discardableResult
    public func effect(
        _ keyPath: any KeyPath<State, Effect.State> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Effect
    ) -> Self {
        node.addEffect(AttemptTrigger { $0[keyPath: keyPath] }, on: queue) { state, _, dispatch in
            create(state, dispatch)
        }
        return self
    }

    /// Runs the effect `create` returns once per attempt of this store's ``Effect/State``.
    ///
    /// The same as ``effect(_:on:create:)`` for a store whose whole state is an ``Effect/State``.
    ///
    /// ```swift
    /// let refresh = StateStore<Effect.State, RefreshAction>(.idle(), reducer: reduceRefresh)
    /// refresh.effect(on: .main) { _, dispatch in
    ///     Effect { await feed.refresh(); dispatch(.finished) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effect(
        on queue: DispatchQueue = .main,
        create: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Effect
    ) -> Self where State == Effect.State {
        node.addEffect(AttemptTrigger { $0 }, on: queue) { state, _, dispatch in
            create(state, dispatch)
        }
        return self
    }

    /// Runs the effect `create` returns whenever the `Bool` at `keyPath` turns `true`, and cancels it
    /// when it turns `false`.
    ///
    /// A `true` first state starts a run too. The run stays current while the value stays `true`.
    ///
    /// ```swift
    /// store.effect(toggle: \.isTracking, on: .main) { _, dispatch in
    ///     Effect {
    ///         for await location in locations.updates { dispatch(.moved(location)) }
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The flag that switches the effect on and off.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effect(
        toggle keyPath: any KeyPath<State, Bool> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Effect
    ) -> Self {
        node.addEffect(ToggleTrigger { $0[keyPath: keyPath] }, on: queue) { state, _, dispatch in
            create(state, dispatch)
        }
        return self
    }

    /// The same as ``effect(toggle:on:create:)``.
    ///
    /// - Parameters:
    ///   - keyPath: The flag that switches the effect on and off.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effectToggle(
        _ keyPath: any KeyPath<State, Bool> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Effect
    ) -> Self {
        effect(toggle: keyPath, on: queue, create: create)
    }

    /// Runs the effect `create` returns each time the value at `keyPath` changes, cancelling the run
    /// started by the change before.
    ///
    /// The value the store has when the effect is added does not start a run.
    ///
    /// ```swift
    /// store.effect(onChange: \.query, on: .main) { state, dispatch in
    ///     Effect {
    ///         let results = await search.run(state.query)
    ///         dispatch(.results(results))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The value to watch.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effect<Value: Equatable & Sendable>(
        onChange keyPath: any KeyPath<State, Value> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Effect
    ) -> Self {
        node.addEffect(ChangeTrigger { $0[keyPath: keyPath] }, on: queue) { state, _, dispatch in
            create(state, dispatch)
        }
        return self
    }

    /// The same as ``effect(onChange:on:create:)``.
    ///
    /// - Parameters:
    ///   - keyPath: The value to watch.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effectOnChange<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping @Sendable (State, @escaping Dispatch<Action>) -> Effect
    ) -> Self {
        effect(onChange: keyPath, on: queue, create: create)
    }

    /// Runs one effect per in-progress ``Effect/State`` in the collection at `keyPath`, each with the
    /// rules of ``effect(_:on:create:)``.
    ///
    /// Elements are identified by their value and run independently: a new in-progress element starts
    /// a run; an element that is removed, leaves in progress, restarts or retries has its run
    /// cancelled. Equal elements share one run.
    ///
    /// ```swift
    /// store.effect(collection: \.uploads, on: .main) { state, upload, dispatch in
    ///     Effect {
    ///         try await uploader.send(upload)
    ///         dispatch(.uploaded(upload))
    ///     } catch: { error in
    ///         dispatch(.uploadFailed(upload, error))
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The collection of effect states.
    ///   - queue: The queue that runs the effects. Defaults to `.main`.
    ///   - forEach: Called on the store's queue with the state, the element to run and a `dispatch` for
    ///     the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effect<Elements: Collection & Sendable>(
        collection keyPath: any KeyPath<State, Elements> & Sendable,
        on queue: DispatchQueue = .main,
        forEach: @escaping @Sendable (State, Effect.State, @escaping Dispatch<Action>) -> Effect
    ) -> Self where Elements.Element == Effect.State {
        node.addEffect(CollectionTrigger { $0[keyPath: keyPath] }, on: queue, create: forEach)
        return self
    }

    /// The same as ``effect(collection:on:forEach:)``.
    ///
    /// - Parameters:
    ///   - keyPath: The collection of effect states.
    ///   - queue: The queue that runs the effects. Defaults to `.main`.
    ///   - forEach: Called on the store's queue with the state, the element to run and a `dispatch` for
    ///     the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effectCollection<Elements: Collection & Sendable>(
        _ keyPath: any KeyPath<State, Elements> & Sendable,
        on queue: DispatchQueue = .main,
        forEach: @escaping @Sendable (State, Effect.State, @escaping Dispatch<Action>) -> Effect
    ) -> Self where Elements.Element == Effect.State {
        effect(collection: keyPath, on: queue, forEach: forEach)
    }
}
