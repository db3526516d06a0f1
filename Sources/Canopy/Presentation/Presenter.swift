import Dispatch

/// The presenter the `setPresenter` methods give a ``Presentable``.
///
/// It keeps the store, and, once subscribed, the subscription: its owner keeps it, so releasing the
/// owner releases both at once. It refers to its owner weakly, and to the store's handle weakly too:
/// only `lease` keeps the store, so that it can let go of it before cancelling the subscription.
final class Presenter<Owner: Presentable, State: Sendable, Action: Sendable>: PresenterProtocol, Sendable {
    private weak let owner: Owner?
    private weak let handle: (any StoreHandle<State, Action>)?
    private let props: @Sendable (State, AnyStore<State, Action>) -> Owner.Props
    private let configuration: SubscriptionConfiguration<State>
    /// Keeps the store, and the subscription once there is one.
    private let lease: StoreLease

    init(
        owner: Owner,
        store: AnyStore<State, Action>,
        props: @escaping @Sendable (State, AnyStore<State, Action>) -> Owner.Props,
        configuration: SubscriptionConfiguration<State>
    ) {
        self.owner = owner
        self.handle = store.handle
        self.lease = StoreLease(store: store)
        self.props = props
        self.configuration = configuration
    }

    func subscribeToStore() {
        guard let handle else {
            preconditionFailure("Internal inconsistency: a presenter's store was released while the presenter kept it")
        }
        weak let owner = self.owner
        let started = SubscriptionPipeline.start(
            handle: handle,
            configuration: configuration,
            props: props,
            observer: .mainActor { props in owner?.setProps(props) }
        )
        lease.replaceSubscription(with: started)
    }
}
