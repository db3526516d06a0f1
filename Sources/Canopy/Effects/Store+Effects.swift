public import Dispatch

extension Store {
    /// The factory an effect operator calls, on the store's queue, with the state and a `dispatch` for
    /// the run's results; it returns the effect to run, or ``Effect/postpone``.
    ///
    /// ```swift
    /// let load: StateStore<Feed, FeedAction>.CreateEffect = { state, dispatch in
    ///     Effect { dispatch(.loaded(await api.items(page: state.page))) }
    /// }
    /// store.effect(\.load, create: load)
    /// ```
    public typealias CreateEffect = @Sendable (State, @escaping Dispatch<Action>) -> Effect

    /// The factory ``effect(collection:on:forEach:)`` and ``effectCollection(on:forEach:)`` call for each
    /// element to run, with the state, the element and a `dispatch` for the run's results.
    ///
    /// ```swift
    /// let upload: StateStore<Uploads, UploadAction>.CreateEffectForState = { _, element, dispatch in
    ///     Effect { await uploader.send(element); dispatch(.sent(element)) }
    /// }
    /// store.effect(collection: \.uploads, forEach: upload)
    /// ```
    public typealias CreateEffectForState = @Sendable (State, Effect.State, @escaping Dispatch<Action>) -> Effect
}

// One set of operators for every store: `StateStore`, `AnyStore`, and any other `Store`, each of which
// reaches its tree node through `eraseToAnyStore()`.
extension Store where State: Sendable, Action: Sendable {
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
        create: @escaping CreateEffect
    ) -> Self {
        eraseToAnyStore().handle.addEffect(AttemptTrigger { $0[keyPath: keyPath] }, on: queue) { state, _, dispatch in
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
        create: @escaping CreateEffect
    ) -> Self where State == Effect.State {
        eraseToAnyStore().handle.addEffect(AttemptTrigger { $0 }, on: queue) { state, _, dispatch in
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
        create: @escaping CreateEffect
    ) -> Self {
        eraseToAnyStore().handle.addEffect(ToggleTrigger { $0[keyPath: keyPath] }, on: queue) { state, _, dispatch in
            create(state, dispatch)
        }
        return self
    }

    /// Runs the effect `create` returns whenever this store's `Bool` state turns `true`, and cancels it
    /// when it turns `false`.
    ///
    /// The same as ``effect(toggle:on:create:)`` for a store whose whole state is the flag. A `true` first
    /// state starts a run too.
    ///
    /// ```swift
    /// let tracking = StateStore<Bool, Bool>(false) { state, on in state = on }
    /// tracking.effectToggle(on: .main) { _, dispatch in
    ///     Effect { await locations.track() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effectToggle(
        on queue: DispatchQueue = .main,
        create: @escaping CreateEffect
    ) -> Self where State == Bool {
        effect(toggle: \.self, on: queue, create: create)
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
        create: @escaping CreateEffect
    ) -> Self {
        eraseToAnyStore().handle.addEffect(ChangeTrigger { $0[keyPath: keyPath] }, on: queue) { state, _, dispatch in
            create(state, dispatch)
        }
        return self
    }

    /// Runs the effect `create` returns each time this store's state changes, cancelling the run started
    /// by the change before.
    ///
    /// The same as ``effect(onChange:on:create:)`` for the whole state. The state the store has when the
    /// effect is added does not start a run.
    ///
    /// ```swift
    /// let query = StateStore<String, String>("") { state, text in state = text }
    /// query.effectOnChange(on: .main) { text, dispatch in
    ///     Effect { await search.run(text) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effectOnChange(
        on queue: DispatchQueue = .main,
        create: @escaping CreateEffect
    ) -> Self where State: Equatable {
        effect(onChange: \.self, on: queue, create: create)
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
        forEach: @escaping CreateEffectForState
    ) -> Self where Elements.Element == Effect.State {
        eraseToAnyStore().handle.addEffect(CollectionTrigger { $0[keyPath: keyPath] }, on: queue, create: forEach)
        return self
    }

    /// Runs one effect per in-progress ``Effect/State`` of this store's collection state, each with the
    /// rules of ``effect(_:on:create:)``.
    ///
    /// The same as ``effect(collection:on:forEach:)`` for a store whose whole state is the collection.
    ///
    /// ```swift
    /// let uploads = StateStore<Set<Effect.State>, UploadAction>([], reducer: reduceUploads)
    /// uploads.effectCollection(on: .main) { _, upload, dispatch in
    ///     Effect { await uploader.send(upload); dispatch(.sent(upload)) }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - queue: The queue that runs the effects. Defaults to `.main`.
    ///   - forEach: Called on the store's queue with the state, the element to run and a `dispatch` for
    ///     the run's results.
    /// - Returns: This store.
    @discardableResult
    public func effectCollection(
        on queue: DispatchQueue = .main,
        forEach: @escaping CreateEffectForState
    ) -> Self where State: Collection & Hashable, State.Element == Effect.State {
        effect(collection: \.self, on: queue, forEach: forEach)
    }
}
