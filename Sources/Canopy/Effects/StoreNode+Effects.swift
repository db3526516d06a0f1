import Dispatch

// The one implementation behind every effect operator of `StateStore` and `AnyStore`.
extension StoreNode {
    /// Attaches an effect engine to this node, from any thread.
    ///
    /// The engine lives in an observer of the node, so it sees every state on the queue and is released
    /// (cancelling its runs) with the node. It reaches the node only through a weak handle.
    func addEffect<Trigger: EffectTrigger<State>>(
        _ trigger: Trigger,
        on queue: DispatchQueue,
        create: @escaping @Sendable (State, Trigger.Key, @escaping Dispatch<Action>) -> Effect
    ) {
        // A weak handle already does not retain the store; wrapping it again would only add a link
        // that nothing keeps alive.
        let target: any StoreNode<State, Action> = (self as? WeakNode<State, Action>) ?? WeakNode(self)
        let runner = EffectRunner<Trigger, Action>(target: target, trigger: trigger, queue: queue, create: create)
        subscribe(
            Observer { state in
                runner.update(state)
                return .active
            }
        )
    }
}
