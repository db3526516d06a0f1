#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The one place a subscription starts. Every public door builds a `SubscriptionConfiguration` and ends
// up here.
extension SubscriptionPipeline {
    /// Starts a subscription of `observer` to `node` as `configuration` says.
    ///
    /// - Parameters:
    ///   - node: The store to observe. It is not retained.
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - props: Turns a state into props; it is given a handle that does not retain the store.
    ///   - observer: Where the props go.
    /// - Returns: The token; cancelling or releasing it ends the subscription at once.
    static func start(
        node: any StoreHandle<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observer: PropsObserver<Props>
    ) -> Subscription {
        if configuration.isDirect, case .anywhere(let observe) = observer {
            let store = AnyStore(node: node.weakHandle())
            return direct(node: node, removeStateDuplicates: configuration.removeStateDuplicates) { state in
                observe(props(state, store))
            }
        }
        return SubscriptionPipeline(node: node, configuration: configuration, props: props, observer: observer)
            .makeSubscription()
    }

    /// Starts a subscription of `observer` to `node` that lasts as long as `owner`, with no token.
    ///
    /// - Parameters:
    ///   - node: The store to observe. It is not retained.
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - props: Turns a state into props; it is given a handle that does not retain the store.
    ///   - observer: Where the props go.
    ///   - owner: The object whose release ends the subscription.
    static func start(
        node: any StoreHandle<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observer: PropsObserver<Props>,
        owner: AnyObject
    ) {
        _ = SubscriptionPipeline(
            node: node,
            configuration: configuration,
            props: props,
            observer: observer,
            owner: owner
        )
    }
}

extension SubscriptionPipeline where Props == State {
    /// Starts a subscription that delivers the states themselves as `configuration` says.
    ///
    /// - Parameters:
    ///   - node: The store to observe. It is not retained.
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - observe: Receives the states.
    /// - Returns: The token; cancelling or releasing it ends the subscription at once.
    static func start(
        node: any StoreHandle<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        observe: @escaping @Sendable (State) -> Void
    ) -> Subscription {
        if configuration.isDirect {
            return direct(node: node, removeStateDuplicates: configuration.removeStateDuplicates, observe)
        }
        return start(
            node: node,
            configuration: configuration,
            props: { state, _ in state },
            observer: .anywhere(observe)
        )
    }
}

extension SubscriptionPipeline {
    /// A subscription with nothing between dedup and the observer: no timer, no queue hop, no ordering
    /// to keep. One observer closure on the node, and nothing else allocated for it.
    private static func direct(
        node: any StoreHandle<State, Action>,
        removeStateDuplicates: Equating<State>?,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> Subscription {
        node.subscription(removeDuplicates: removeStateDuplicates, handler)
    }
}
