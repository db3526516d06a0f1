import Dispatch

/// Where a subscription's props go once they are computed.
enum PropsDelivery<Props>: Sendable {
    /// Call the closure on the main queue, isolated to the main actor.
    case mainActor(@MainActor @Sendable (Props) -> Void)
    /// Call the closure on `queue`.
    case queue(DispatchQueue, @Sendable (Props) -> Void)

    /// Where `observer` gets the props under `delivery`.
    ///
    /// - Parameters:
    ///   - delivery: Where the configuration delivers.
    ///   - observer: The consumer.
    ///   - storeQueue: The store's queue, for ``SubscriptionConfiguration/Delivery/storeQueue``.
    init<State>(
        _ delivery: SubscriptionConfiguration<State>.Delivery,
        to observer: PropsObserver<Props>,
        storeQueue: DispatchQueue
    ) {
        switch (delivery, observer) {
        case (.mainActor, .mainActor(let observe)):
            self = .mainActor(observe)
        case (.mainActor, .anywhere(let observe)):
            self = .mainActor { props in observe(props) }
        case (.queue(let queue), .anywhere(let observe)):
            self = .queue(queue, observe)
        case (.storeQueue, .anywhere(let observe)):
            self = .queue(storeQueue, observe)
        case (.queue, .mainActor), (.storeQueue, .mainActor):
            preconditionFailure("Internal inconsistency: a main-actor observer needs a main-actor delivery")
        }
    }
}
