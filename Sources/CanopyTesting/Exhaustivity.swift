/// How much a ``TestStore`` asserts.
///
/// ```swift
/// let store = TestStore(Counter(), reducer: Counter.reduce)
/// store.exhaustivity = .off
/// await store.send(.increment) { $0.count = 1 }  // other fields may change too
/// ```
public enum Exhaustivity: Sendable, Equatable {
    /// Every change of state must be stated, every action effects send must be received, and no
    /// effect may still run at the end of the test.
    case on
    /// Only what the closures set is checked: `send` and `receive` compare the fields a closure
    /// assigns, `receive` skips the actions that do not match, and the end of the test checks nothing.
    case off
}
