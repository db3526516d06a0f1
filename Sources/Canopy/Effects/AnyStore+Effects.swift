public import Dispatch

extension AnyStore {

    /// Runs the effect `create` returns once per attempt of the ``Effect/State`` at `keyPath`.
    ///
    /// Works as ``StateStore/effect(_:on:create:)`` does.
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
    /// Works as ``StateStore/effect(on:create:)`` does.
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
    ///
    /// Works as ``StateStore/effect(toggle:on:create:)`` does.
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
    /// Works as ``StateStore/effectToggle(_:on:create:)`` does.
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
    ///
    /// Works as ``StateStore/effect(onChange:on:create:)`` does.
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
    /// Works as ``StateStore/effectOnChange(_:on:create:)`` does.
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
    ///
    /// Works as ``StateStore/effect(collection:on:forEach:)`` does.
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
    /// Works as ``StateStore/effectCollection(_:on:forEach:)`` does.
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
