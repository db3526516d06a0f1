public import Dispatch

// Canopy 1 named its key-path effect operators `effectToggle(_:)`, `effectOnChange(_:)` and
// `effectCollection(_:)`. Puredux uses those names for the whole-state operators, so the key-path forms
// are `effect(toggle:)`, `effect(onChange:)` and `effect(collection:)`. The old spellings keep compiling:
// each needs a leading key path, which no Puredux call site passes, so they never make one ambiguous.
extension Store where State: Sendable, Action: Sendable {
    /// The same as ``effect(toggle:on:create:)``.
    ///
    /// ```swift
    /// store.effect(toggle: \.isTracking) { _, dispatch in Effect { await track(dispatch) } }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The flag that switches the effect on and off.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @available(
        *,
        deprecated,
        renamed: "effect(toggle:on:create:)",
        message: "effectToggle is Puredux's whole-state form now"
    )
    @discardableResult
    public func effectToggle(
        _ keyPath: any KeyPath<State, Bool> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping CreateEffect
    ) -> Self {
        effect(toggle: keyPath, on: queue, create: create)
    }

    /// The same as ``effect(onChange:on:create:)``.
    ///
    /// ```swift
    /// store.effect(onChange: \.query) { state, dispatch in Effect { await search(state.query, dispatch) } }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The value to watch.
    ///   - queue: The queue that runs the effect. Defaults to `.main`.
    ///   - create: Called on the store's queue with the state and a `dispatch` for the run's results.
    /// - Returns: This store.
    @available(
        *,
        deprecated,
        renamed: "effect(onChange:on:create:)",
        message: "effectOnChange is Puredux's whole-state form now"
    )
    @discardableResult
    public func effectOnChange<Value: Equatable & Sendable>(
        _ keyPath: any KeyPath<State, Value> & Sendable,
        on queue: DispatchQueue = .main,
        create: @escaping CreateEffect
    ) -> Self {
        effect(onChange: keyPath, on: queue, create: create)
    }

    /// The same as ``effect(collection:on:forEach:)``.
    ///
    /// ```swift
    /// store.effect(collection: \.uploads) { _, upload, dispatch in Effect { await send(upload, dispatch) } }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The collection of effect states.
    ///   - queue: The queue that runs the effects. Defaults to `.main`.
    ///   - forEach: Called on the store's queue with the state, the element to run and a `dispatch` for
    ///     the run's results.
    /// - Returns: This store.
    @available(
        *,
        deprecated,
        renamed: "effect(collection:on:forEach:)",
        message: "effectCollection is Puredux's whole-state form now"
    )
    @discardableResult
    public func effectCollection<Elements: Collection & Sendable>(
        _ keyPath: any KeyPath<State, Elements> & Sendable,
        on queue: DispatchQueue = .main,
        forEach: @escaping CreateEffectForState
    ) -> Self where Elements.Element == Effect.State {
        effect(collection: keyPath, on: queue, forEach: forEach)
    }
}
