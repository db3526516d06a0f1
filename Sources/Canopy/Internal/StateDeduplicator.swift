import Dispatch

/// Lets a state through unless ``Equating`` calls it a duplicate of the last one let through; the first
/// always passes. Confined to a tree's queue: it sits in a deduplicating subscription's observer.
///
/// The check of an equating that knows only its predicate (``Equating/init(predicate:)``, `&&`,
/// ``Equating/with(_:)``, ``Equating/asEquatable``); one made for a projection comes compiled from where
/// the equating was made (``Equating/makeCheck``), and `Equating.check(queue:passed:)` uses that instead.
///
/// This one runs in code generic over the state, so it avoids what a plain `State?` costs there: keeping
/// the last state as an optional in a `QueueConfined` made the runtime look up `Optional<State>`'s
/// metadata and copy the optional twice per call. Here the last state lives in memory typed only by
/// `State`, whose metadata comes with `self`, beside a flag.
// Safety: Sendable by hand: its state is confined to `queue` and its memory owned here (note below).
final class StateDeduplicator<State>: @unchecked Sendable {
    // Safety: `last` and `hasLast` are private and used only in `accepts`, which runs only on `queue`
    // (the subscription's observer is called only there; debug builds check it), so accesses are
    // serialised and never overlap. `last` points at memory for one `State`, initialised exactly when
    // `hasLast` is true, allocated here and freed in `deinit`.
    private let queue: DispatchQueue
    private let isDuplicate: @Sendable (State, State) -> Bool
    // Safety: allocated here, freed in `deinit`; holds a `State` exactly while `hasLast` (used on `queue`).
    private let last = UnsafeMutablePointer<State>.allocate(capacity: 1)
    @exclusivity(unchecked) private var hasLast = false

    init(_ isDuplicate: @escaping @Sendable (State, State) -> Bool, queue: DispatchQueue) {
        self.isDuplicate = isDuplicate
        self.queue = queue
    }

    deinit {
        if hasLast {
            last.deinitialize(count: 1)
        }
        last.deallocate()
    }

    /// Whether `state` passes; if it does, it becomes the state later ones are compared with.
    func accepts(_ state: State) -> Bool {
        assertOnQueue(queue)
        if hasLast {
            if isDuplicate(last.pointee, state) {
                return false
            }
            last.pointee = state
        } else {
            last.initialize(to: state)
            hasLast = true
        }
        return true
    }
}
