import Dispatch

/// Lets a state through unless ``Equating`` calls it a duplicate of the last one let through; the first
/// always passes. Confined to a tree's queue: it sits in a deduplicating subscription's observer.
///
/// It sits on the path every state takes to every deduplicating subscriber, so it avoids what a plain
/// `State?` costs in unspecialised generic code: keeping the last state as an optional in a
/// `QueueConfined` made the runtime look up `Optional<State>`'s metadata and copy the optional twice per
/// call. Here the last state lives in memory typed only by `State`, whose metadata comes with `self`,
/// beside a flag.
// Safety: Sendable by hand: its state is confined to `queue` and its memory owned here (note below).
final class StateDeduplicator<State>: @unchecked Sendable {
    // Safety: `last` and `hasLast` are private and used only in `accepts`, which runs only on `queue`
    // (the subscription's observer is called only there; debug builds check it), so accesses are
    // serialised and never overlap. `last` points at memory for one `State`, initialised exactly when
    // `hasLast` is true, allocated here and freed in `deinit`.
    private let queue: DispatchQueue
    private let isDuplicate: @Sendable (State, State) -> Bool
    /// Set for equatings that compare one projection: it keeps the last projection instead of the last
    /// state, and `last` stays unused.
    private let projectionFilter: (@Sendable (State) -> Bool)?
    // Safety: allocated here, freed in `deinit`; holds a `State` exactly while `hasLast` (used on `queue`).
    private let last = UnsafeMutablePointer<State>.allocate(capacity: 1)
    @exclusivity(unchecked) private var hasLast = false

    /// The filter of one subscription, as one closure: in release builds, the equating's projection
    /// filter itself when it has one (a call layer fewer for each state), otherwise a deduplicator's
    /// ``accepts(_:)``. Debug builds always go through the deduplicator, which checks the queue.
    static func filter(_ equating: Equating<State>, queue: DispatchQueue) -> @Sendable (State) -> Bool {
        #if !DEBUG
        if let makeFilter = equating.makeFilter {
            return makeFilter()
        }
        #endif
        let deduplicator = StateDeduplicator(equating, queue: queue)
        return { deduplicator.accepts($0) }
    }

    init(_ equating: Equating<State>, queue: DispatchQueue) {
        self.isDuplicate = equating.predicate
        self.projectionFilter = equating.makeFilter?()
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
        if let projectionFilter {
            return projectionFilter(state)
        }
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
