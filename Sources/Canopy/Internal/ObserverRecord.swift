#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One observer as a node's list keeps it (``ObserverStorage``): its id, what it calls with each state,
/// and, for a subscription, what the subscription keeps there (``SubscriptionPart``): its gate, and for
/// a deduplicating subscription whose equating compares an `Int` or a `Bool` projection, its dedup check,
/// which holds the gate.
///
/// The loop of a node's list runs such a check in place (``ObserverStorage/call(_:with:)``): the
/// projection's call and the comparison with the last projection, with no call of the check and no
/// closure between the loop and them. `observe` is then the same check as a closure
/// (``AtomicProjectionFilter/observer``, whose context is the filter, so it costs no allocation): the
/// node sends the observer's first state through it as it adds the observer, and the loop does not
/// call it. Kept in the record all the same, so that every record has a closure and the loop tests
/// one optional field, not two.
/// A child's observer inside its cell is an ``Observer`` (``NodeObservers``), called through its
/// closure, and moved into a list without its check or its gate.
///
/// Through its gate (``CallGate``) the subscription finds its observer again: the list writes the
/// record's slot into the gate when it adds the record and whenever it moves it
/// (``ObserverStorage/compacted(capacity:)``), so a cancel looks at that slot only. Only records without
/// a gate are in the node's index of ids (``ObserverIndex``). The gate shares its field with the check,
/// which holds it: a record takes 40 bytes, as it did before it kept the gate.
@usableFromInline
struct ObserverRecord<State>: Sendable {
    /// The observer's id.
    @usableFromInline
    let id: UUID

    /// What the observer calls with each state.
    @usableFromInline
    let observe: Observer<State>.StateHandler

    /// The subscription's gate and dedup check, if the observer is a subscription's.
    @usableFromInline
    let subscription: SubscriptionPart<State>?

    /// A record for the observer with `id`; `filter`, if any, holds `gate`.
    @inlinable
    init(
        id: UUID,
        filter: AtomicProjectionFilter<State>? = nil,
        gate: CallGate? = nil,
        observe: @escaping Observer<State>.StateHandler
    ) {
        self.id = id
        self.observe = observe
        if let filter {
            subscription = .filter(filter)
        } else if let gate {
            subscription = .gate(gate)
        } else {
            subscription = nil
        }
    }
}

/// What a subscription keeps in its observer's record (``ObserverRecord``): its dedup check, which holds
/// its gate and which the list's loop runs in place of the observer's closure, or its gate alone. Either
/// is one reference: the enum takes one word.
@usableFromInline
enum SubscriptionPart<State>: Sendable {
    /// A deduplicating subscription's check, whose gate is its own.
    case filter(AtomicProjectionFilter<State>)
    /// Any other subscription's gate.
    case gate(CallGate)

    /// The subscription's gate.
    var gate: CallGate {
        switch self {
        case .filter(let filter): filter.gate
        case .gate(let gate): gate
        }
    }

    /// Runs the dedup check, if the subscription has one in the record, with `state`; `nil` when it has
    /// none, and the loop calls the observer's closure.
    ///
    /// A method of the enum, which the loop calls on the record's field in place: the enum is borrowed
    /// there, and so is the check it holds. Switched over in the loop, the check was copied out first, a
    /// retain and a release per observer and state.
    @inlinable
    @inline(__always)
    func check(_ state: borrowing State) -> ObserverStatus? {
        switch self {
        case .filter(let filter): filter.check(state)
        case .gate: nil
        }
    }
}
