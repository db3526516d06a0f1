/// An object that shows a store's state: a view controller, a view, a view model, a terminal screen.
///
/// Conforming requires nothing. It gives the object the `subscribe` family, which runs the subscriber
/// pipeline (dedup → debounce → props on a presentation queue → delivery on the main actor) and ties the
/// subscription to the object: once the object is released, nothing more is delivered and the
/// subscription is dropped.
///
/// ```swift
/// final class CounterScreen: UIStateObserver {
///     let store: StateStore<Counter, CounterAction>
///
///     init(store: StateStore<Counter, CounterAction>) {
///         self.store = store
///         subscribe(store: store, props: { state, _ in "\(state.count)" }) { text in print(text) }
///     }
/// }
/// ```
///
/// The subscription does not keep the store alive: keep it in the object (as above), or use a
/// ``Presentable`` whose presenter keeps it. Released observers are dropped when their store sends its
/// next state that passes dedup, or when the store goes; they deliver nothing in between. For eager
/// teardown, use ``Presentable`` or ``Store/subscribe(props:presentationQueue:removeStateDuplicates:debounce:deliveryQueue:observe:)``.
///
/// On Apple platforms `UIViewController` and `UIView` conform.
public protocol UIStateObserver: AnyObject {}
