import Synchronization

/// Lets a state through unless ``Equating`` calls it a duplicate of the last one let through; the first
/// always passes. It sits in a deduplicating subscription's observer, which its node calls on the tree's
/// queue.
///
/// The check of an equating that knows only its predicate (``Equating/init(predicate:)``, `&&`,
/// ``Equating/with(_:)``, ``Equating/asEquatable``); one made for a projection comes compiled from where
/// the equating was made (``Equating/makeCheck``), and subscriptions use that instead.
///
/// The last state sits in a `Mutex`, so the compiler checks that it is shared safely. Its calls come one
/// at a time, from the tree's queue, so the lock is never contended.
final class StateDeduplicator<State: Sendable>: Sendable {
    private let isDuplicate: @Sendable (State, State) -> Bool
    private let last = Mutex<State?>(nil)

    init(_ isDuplicate: @escaping @Sendable (State, State) -> Bool) {
        self.isDuplicate = isDuplicate
    }

    /// Whether `state` passes; if it does, it becomes the state later ones are compared with.
    func accepts(_ state: State) -> Bool {
        last.withLock { last in
            if let previous = last, isDuplicate(previous, state) {
                return false
            }
            last = state
            return true
        }
    }
}
