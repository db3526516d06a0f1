/// Tells whether an object is still alive, without keeping it alive.
///
/// A subscription made by a ``UIStateObserver`` ends when its observer object is released; this is how
/// the pipeline notices, from any queue, without the object having to be `Sendable`.
// Safety: Sendable by hand: its one field is a `weak let`, only tested for `nil` (note below).
final class LifetimeWatch: @unchecked Sendable {
    // Safety: `object` is set in `init` and never written again. Loading a weak reference is atomic in
    // Swift, and the loaded reference is only compared with `nil` and dropped: it is never used, so
    // whether the object itself may be shared across threads does not matter.
    private weak let object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }

    /// Whether the object has not been deallocated yet.
    var isAlive: Bool {
        object != nil
    }
}
