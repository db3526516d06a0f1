import Dispatch

/// Remembers the last state a subscriber accepted and rejects states an ``Equating`` calls duplicates.
///
/// Used on the store's queue, before any other work for the subscriber: a duplicate costs one
/// predicate call.
final class DuplicateFilter<State>: Sendable {
    private let equating: Equating<State>
    private let last: QueueConfined<State?>

    init(_ equating: Equating<State>, queue: DispatchQueue) {
        self.equating = equating
        self.last = QueueConfined(nil, queue: queue)
    }

    /// On the queue: returns `false` for a duplicate of the last accepted state; otherwise remembers
    /// `state` and returns `true`. The first state always passes.
    func accepts(_ state: State) -> Bool {
        if let previous = last.value, equating.predicate(previous, state) {
            return false
        }
        last.value = state
        return true
    }
}
