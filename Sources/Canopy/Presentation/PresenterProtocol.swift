/// Something that connects a ``Presentable`` to its store once asked to.
///
/// ``Presentable/setPresenter(store:props:presentationQueue:removeStateDuplicates:debounceFor:)`` makes
/// one; nothing is subscribed until ``subscribeToStore()`` is called.
///
/// It is `Sendable` (Puredux's is not required to be) so that a ``Presentable`` can keep it behind a
/// lock and be shared across threads without unchecked code.
///
/// ```swift
/// screen.setPresenter(store: store, props: ScreenProps.init)
/// screen.presenter?.subscribeToStore()
/// ```
public protocol PresenterProtocol: Sendable {
    /// Starts delivering props to the presentable. Calling it again restarts the subscription, which
    /// delivers the current state again.
    func subscribeToStore()
}
