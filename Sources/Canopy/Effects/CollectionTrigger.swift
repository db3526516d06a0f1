/// Requests one run per in-progress element of a collection of ``Effect/State`` values
/// (`effect(collection:on:forEach:)`).
///
/// Elements are identified by their value, like ``AttemptTrigger``: each runs independently, and an
/// element that leaves the collection, or leaves in progress, has its run cancelled. Equal elements
/// share one run.
struct CollectionTrigger<State, Elements: Collection>: EffectTrigger where Elements.Element == Effect.State {
    typealias Key = Effect.State
    typealias Requests = [EffectRequest<Effect.State>]

    let elements: @Sendable (State) -> Elements

    func requests(for state: State) -> [EffectRequest<Effect.State>] {
        var requests: [EffectRequest<Effect.State>] = []
        for element in elements(state) {
            if let delay = element.delay {
                requests.append(EffectRequest(key: element, delay: delay))
            }
        }
        return requests
    }
}
