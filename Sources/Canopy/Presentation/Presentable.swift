/// An object on the main actor that receives props from a store through its ``presenter``.
///
/// Give it a presenter with one of the `setPresenter` methods, then call
/// `presenter?.subscribeToStore()` when it is ready to show props (for a view controller, in
/// `viewDidLoad`). From then on ``setProps(_:)`` is called on the main actor with props computed off
/// the main thread, after dedup and debounce.
///
/// The presenter keeps the store and the subscription; the object keeps the presenter. Releasing the
/// object therefore ends the subscription and releases the store at once.
///
/// ```swift
/// @MainActor
/// final class CounterScreen: Presentable {
///     var presenter: (any PresenterProtocol)?
///
///     func setProps(_ props: String) { print(props) }
/// }
///
/// let screen = CounterScreen()
/// screen.setPresenter(store: store, props: { state, _ in "\(state.count)" })
/// screen.presenter?.subscribeToStore()
/// ```
@MainActor
public protocol Presentable: UIStateObserver, Sendable {
    /// What the object shows.
    associatedtype Props

    /// Connects the object to its store; set by the `setPresenter` methods.
    var presenter: (any PresenterProtocol)? { get set }

    /// Shows `props`. Called on the main actor.
    ///
    /// - Parameter props: The latest props.
    func setProps(_ props: Props)
}
