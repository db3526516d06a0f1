// Queue access for `CanopyTesting`'s `TestStore`, which lives in another target of this package.
extension StateStore {
    /// Runs `work` on the tree's queue after everything dispatched before it, from any thread.
    package func enqueueForTesting(_ work: @escaping @Sendable () -> Void) {
        handle.enqueue(work)
    }

    /// On the tree's queue: reduces `action` as if dispatched to this store (this store's reducer,
    /// then each ancestor's) and publishes the result, before returning.
    package func reduceForTesting(_ action: Action) {
        handle.receive(action)
    }
}
