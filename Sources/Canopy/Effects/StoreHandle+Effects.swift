import Dispatch

// The one implementation behind every effect operator of `StateStore` and `AnyStore`.
extension StoreHandle {
    /// Attaches an effect engine to this node, from any thread.
    ///
    /// The engine lives in an observer, so it sees every state on the queue and is released (cancelling
    /// its runs) with the node that holds the observer: this node, or a view's parent. It reaches the
    /// store only through ``weakHandle()``.
    func addEffect<Trigger: EffectTrigger<State>>(
        _ trigger: Trigger,
        on queue: DispatchQueue,
        create: @escaping @Sendable (State, Trigger.Key, @escaping Dispatch<Action>) -> Effect
    ) {
        let target = weakHandle()
        // The factory runs in the dependency scope of this call (see `DependencyScope`).
        let runner = EffectRunner<Trigger, Action>(
            target: target,
            trigger: trigger,
            queue: queue,
            create: DependencyScope.capturing(create)
        )
        subscribe(
            Observer { state in
                runner.update(state)
                return .active
            }
        )
    }
}
