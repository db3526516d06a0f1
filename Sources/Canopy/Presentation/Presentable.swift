/// An object that receives props from a store through its ``presenter``.
///
/// Give it a presenter with one of the `setPresenter` methods, then call
/// `presenter?.subscribeToStore()` when it is ready to show props (for a view controller, in
/// `viewDidLoad`). From then on ``setProps(_:)`` is called on the main actor with props computed off
/// the main thread, after dedup and debounce.
///
/// The protocol is not isolated to an actor: the object can be made, given a presenter and subscribed
/// from any thread. Only ``setProps(_:)`` is main-actor isolated, because that is where the runtime
/// calls it. A plain class conforms with an ordinary `setProps`; a `@MainActor` class (a view
/// controller) conforms with its own main-actor `setProps`, and keeps ``presenter`` `nonisolated`.
///
/// The presenter keeps the store and the subscription; the object keeps the presenter. Releasing the
/// object therefore ends the subscription and releases the store at once.
///
/// ```swift
/// final class CounterScreen: Presentable {
///     private let slot = Mutex<(any PresenterProtocol)?>(nil)
///     var presenter: (any PresenterProtocol)? {
///         get { slot.withLock { $0 } }
///         set { slot.withLock { $0 = newValue } }
///     }
///
///     func setProps(_ props: String) { print(props) }
/// }
///
/// let screen = CounterScreen()
/// screen.setPresenter(store: store, props: { state, _ in "\(state.count)" })
/// screen.presenter?.subscribeToStore()
/// ```
public protocol Presentable: UIStateObserver, Sendable {
    /// What the object shows.
    associatedtype Props

    /// Connects the object to its store; set by the `setPresenter` methods.
    var presenter: (any PresenterProtocol)? { get set }

    /// Shows `props`. Called on the main actor.
    ///
    /// A non-isolated method satisfies this requirement too.
    ///
    /// - Parameter props: The latest props.
    @MainActor func setProps(_ props: Props)
}
