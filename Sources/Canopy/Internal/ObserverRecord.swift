#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One observer as a node's list keeps it (``ObserverStorage``): its id, what it calls with each state,
/// and, for a deduplicating subscription whose equating compares an `Int` or a `Bool` projection, that
/// subscription's dedup check.
///
/// The loop of a node's list runs such a check in place (``ObserverStorage/call(_:with:)``): the
/// projection's call and the comparison with the last projection, with no call of the check and no
/// closure between the loop and them. `observe` is then the same check as a closure
/// (``AtomicProjectionFilter/observer``, whose context is the filter, so it costs no allocation): the
/// node sends the observer's first state through it as it adds the observer, and the loop does not
/// call it. Kept in the record all the same, so that every record has a closure and the loop tests
/// one optional field, not two.
/// A child's observer inside its cell is an ``Observer`` (``NodeObservers``), called through its
/// closure, and moved into a list without its check.
@usableFromInline
struct ObserverRecord<State>: Sendable {
    /// The observer's id.
    @usableFromInline
    let id: UUID

    /// What the observer calls with each state.
    @usableFromInline
    let observe: Observer<State>.StateHandler

    /// The dedup check the loop runs in place of `observe`, if any.
    @usableFromInline
    let filter: AtomicProjectionFilter<State>?

    @inlinable
    init(
        id: UUID,
        filter: AtomicProjectionFilter<State>? = nil,
        observe: @escaping Observer<State>.StateHandler
    ) {
        self.id = id
        self.observe = observe
        self.filter = filter
    }
}
