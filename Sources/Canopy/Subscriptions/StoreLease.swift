/// Keeps a store alive together with the current subscription to it, for an owner object (a presenter,
/// an observable model), and lets go of the store first.
///
/// Cancelling a subscription asks the store's queue to remove its observer, and that request keeps the
/// store alive until the queue has run it. When the lease goes, it releases the store handle before
/// cancelling: if that handle was the store's last, the store is gone at once, and with it the observer,
/// so there is nothing left to ask the queue.
final class StoreLease: Sendable {
    private struct Parts: Sendable {
        var store: (any Sendable)?
        var subscription: Subscription?
    }

    private let parts: LockedValue<Parts>

    /// - Parameter store: The store handle to keep alive.
    init(store: any Sendable) {
        self.parts = LockedValue(Parts(store: store))
    }

    deinit {
        // Each value is taken out under the lock and dropped after it, so that whatever the store and
        // the subscription release runs outside the lock.
        do {
            let store = parts.withLock { parts in
                defer { parts.store = nil }
                return parts.store
            }
            // Released at the end of this scope, before the subscription is cancelled.
            _ = store
        }
        cancelSubscription()
    }

    /// Makes `subscription` the current one and cancels the one it replaces.
    func replaceSubscription(with subscription: Subscription) {
        let previous = parts.withLock { parts in
            defer { parts.subscription = subscription }
            return parts.subscription
        }
        previous?.cancel()
    }

    /// Cancels the current subscription, if any; the store stays.
    func cancelSubscription() {
        parts.withLock { parts in
            defer { parts.subscription = nil }
            return parts.subscription
        }?
        .cancel()
    }
}
