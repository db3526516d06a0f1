#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Where a subscription described by a `SubscriptionConfiguration` starts: every public door that takes
// or builds one ends up here. A subscription with nothing to debounce, compute or hop goes to the node's
// deduplicating observer and token alone (`direct`, below), as `subscribe(removeStateDuplicates:_:)` and
// `states(removeDuplicates:)` do without building a configuration.
extension SubscriptionPipeline {
    /// Starts a subscription of `observer` to `handle` as `configuration` says.
    ///
    /// - Parameters:
    ///   - handle: The store to observe. It is not retained.
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - props: Turns a state into props; it is given a handle that does not retain the store.
    ///   - observer: Where the props go.
    /// - Returns: The token; cancelling or releasing it ends the subscription at once.
    static func start(
        handle: any StoreHandle<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observer: PropsObserver<Props>
    ) -> Subscription {
        if configuration.isDirect, case .anywhere(let observe) = observer {
            let store = AnyStore(handle: handle.weakHandle())
            return direct(handle: handle, removeStateDuplicates: configuration.removeStateDuplicates) { state in
                observe(props(state, store))
            }
        }
        return SubscriptionPipeline(handle: handle, configuration: configuration, props: props, observer: observer)
            .makeSubscription()
    }

    /// Starts a subscription of `observer` to `handle` that lasts as long as `owner`, with no token.
    ///
    /// - Parameters:
    ///   - handle: The store to observe. It is not retained.
    ///   - configuration: Dedup, debounce, presentation queue and delivery.
    ///   - props: Turns a state into props; it is given a handle that does not retain the store.
    ///   - observer: Where the props go.
    ///   - owner: The object whose release ends the subscription.
    static func start(
        handle: any StoreHandle<State, Action>,
        configuration: SubscriptionConfiguration<State>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Props,
        observer: PropsObserver<Props>,
        owner: AnyObject
    ) {
        _ = SubscriptionPipeline(
            handle: handle,
            configuration: configuration,
            props: props,
            observer: observer,
            owner: owner
        )
    }
}

extension SubscriptionPipeline {
    /// A subscription with nothing between dedup and the observer: no timer, no queue hop, no ordering
    /// to keep. One observer closure on the node, and nothing else allocated for it.
    private static func direct(
        handle: any StoreHandle<State, Action>,
        removeStateDuplicates: Equating<State>?,
        _ handler: @escaping @Sendable (State) -> Void
    ) -> Subscription {
        handle.subscription(removeDuplicates: removeStateDuplicates, handler)
    }
}
