/// Requests a run each time a value changes (`effect(onChange:on:create:)`).
///
/// The first value is only remembered. Each later value that differs from the previous one starts a
/// new run, which replaces the run of the change before; the key counts the changes.
struct ChangeTrigger<State, Value: Equatable & Sendable>: EffectTrigger {
    typealias Key = Int
    typealias Requests = SingleRequest<Int>

    let value: @Sendable (State) -> Value
    private var previous: Value?
    private var hasPrevious = false
    private var generation = 0

    init(value: @escaping @Sendable (State) -> Value) {
        self.value = value
    }

    mutating func requests(for state: State) -> SingleRequest<Int> {
        let value = value(state)
        if !hasPrevious {
            hasPrevious = true
        } else if previous != value {
            generation += 1
        }
        previous = value
        guard generation > 0 else { return SingleRequest(nil) }
        return SingleRequest(EffectRequest(key: generation, delay: 0))
    }
}
