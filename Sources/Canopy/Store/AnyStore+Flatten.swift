extension AnyStore {
    /// Flattens the nested state that 2 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3>() -> AnyStore<(T1, T2, T3), Action>
    where State == ((T1, T2), T3) {
        map(state: { ($0.0.0, $0.0.1, $0.1) })
    }

    /// Flattens the nested state that 3 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4>() -> AnyStore<(T1, T2, T3, T4), Action>
    where State == (((T1, T2), T3), T4) {
        map(state: { ($0.0.0.0, $0.0.0.1, $0.0.1, $0.1) })
    }

    /// Flattens the nested state that 4 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4, T5)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4, T5>() -> AnyStore<(T1, T2, T3, T4, T5), Action>
    where State == ((((T1, T2), T3), T4), T5) {
        map(state: { ($0.0.0.0.0, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) })
    }

    /// Flattens the nested state that 5 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4, T5, T6)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4, T5, T6>() -> AnyStore<(T1, T2, T3, T4, T5, T6), Action>
    where State == (((((T1, T2), T3), T4), T5), T6) {
        map(state: { ($0.0.0.0.0.0, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) })
    }

    /// Flattens the nested state that 6 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4, T5, T6, T7)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4, T5, T6, T7>() -> AnyStore<(T1, T2, T3, T4, T5, T6, T7), Action>
    where State == ((((((T1, T2), T3), T4), T5), T6), T7) {
        map(state: { ($0.0.0.0.0.0.0, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1) })
    }

    /// Flattens the nested state that 7 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4, T5, T6, T7, T8)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4, T5, T6, T7, T8>() -> AnyStore<(T1, T2, T3, T4, T5, T6, T7, T8), Action>
    where State == (((((((T1, T2), T3), T4), T5), T6), T7), T8) {
        map(state: {
            ($0.0.0.0.0.0.0.0, $0.0.0.0.0.0.0.1, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1)
        })
    }

    /// Flattens the nested state that 8 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4, T5, T6, T7, T8, T9)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4, T5, T6, T7, T8, T9>() -> AnyStore<(T1, T2, T3, T4, T5, T6, T7, T8, T9), Action>
    where State == ((((((((T1, T2), T3), T4), T5), T6), T7), T8), T9) {
        map(state: {
            (
                $0.0.0.0.0.0.0.0.0, $0.0.0.0.0.0.0.0.1, $0.0.0.0.0.0.0.1, $0.0.0.0.0.0.1, $0.0.0.0.0.1, $0.0.0.0.1,
                $0.0.0.1, $0.0.1, $0.1
            )
        })
    }

    /// Flattens the nested state that 9 chained `with(_:reducer:)` calls build into
    /// `(T1, T2, T3, T4, T5, T6, T7, T8, T9, T10)`.
    ///
    /// - Returns: A store of the flat tuple.
    public func flatMap<T1, T2, T3, T4, T5, T6, T7, T8, T9, T10>() -> AnyStore<
        (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10), Action
    >
    where State == (((((((((T1, T2), T3), T4), T5), T6), T7), T8), T9), T10) {
        map(state: {
            (
                $0.0.0.0.0.0.0.0.0.0, $0.0.0.0.0.0.0.0.0.1, $0.0.0.0.0.0.0.0.1, $0.0.0.0.0.0.0.1, $0.0.0.0.0.0.1,
                $0.0.0.0.0.1, $0.0.0.0.1, $0.0.0.1, $0.0.1, $0.1
            )
        })
    }
}
