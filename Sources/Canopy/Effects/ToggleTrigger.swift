/// Requests a run while a `Bool` is `true` (`effect(toggle:on:create:)`).
///
/// Each change from `false` to `true` (and a `true` first state) starts a new run; `true` to `false`
/// ends it. The key counts the times the value was switched on.
struct ToggleTrigger<State>: EffectTrigger {
    typealias Key = Int
    typealias Requests = SingleRequest<Int>

    let isOn: @Sendable (State) -> Bool
    private var wasOn = false
    private var generation = 0

    init(isOn: @escaping @Sendable (State) -> Bool) {
        self.isOn = isOn
    }

    mutating func requests(for state: State) -> SingleRequest<Int> {
        let isOn = isOn(state)
        defer { wasOn = isOn }
        guard isOn else { return SingleRequest(nil) }
        if !wasOn {
            generation += 1
        }
        return SingleRequest(EffectRequest(key: generation, delay: 0))
    }
}
