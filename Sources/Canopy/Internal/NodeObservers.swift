#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The first observer of a child, in its cell (``ChildCell``); the node's later observers go into a list
/// (``ObserverStorage``), which the node keeps in its box of extras (``NodeExtras/observerList``). The
/// root and mapped nodes, few in a tree, keep theirs in a list from the first.
///
/// Most children have one observer, a child store's view or its subscription, and a list of one takes a
/// heap block of 72 bytes where the observer inside the cell takes 32 (W4 counts them per child store).
/// The observer inside keeps no dedup check of its own (``ObserverRecord``): it is called through its
/// closure, which for a deduplicating subscription is the check (see ``notify(_:)``), so it needs none,
/// and it keeps a child 8 bytes smaller. Moved into a list, it is called through its closure there too.
/// Slots are numbered as in the list: the observer inside is slot 0, and moves to the list's slot 0
/// when the list is made, so a slot never changes while its observer is there. A node that had a list
/// keeps it, and its observer inside stays empty from then on.
///
/// Every member is inlined: it is used by a child's code compiled for its types (``ChildKind``), and
/// a call to a method of a generic struct from generic code passes the struct's type metadata, which
/// the runtime looks up by hashing (several hundred instructions; ``ObserverStorage``, a class, finds
/// it through the object).
@usableFromInline
struct NodeObservers<State>: Sendable {
    /// The node's observer while it has had no other one; `nil` when it has none, or has a list.
    @usableFromInline
    var single: Observer<State>?

    @usableFromInline
    init() {}

    /// Whether the node has no observer inside it.
    @inline(__always)
    var isEmpty: Bool {
        // The observer's id, read in place: `single == nil` copied the observer out first (a retain and
        // a release of its closure's context).
        single?.id == nil
    }

    /// The number of observers inside the node: 0 or 1.
    @inline(__always)
    var live: Int {
        single == nil ? 0 : 1
    }

    /// Calls the observer inside, if there is one, with `state`, which is evaluated only then (a cell with
    /// no observer makes or copies no state); returns `[0]`, its slot, when it answered `.dead`, `nil`
    /// otherwise. A node with a list calls the list instead (``ObserverStorage/notify(_:)``).
    ///
    /// Inlined where it is called: into a child's code compiled for its types (``ChildKind``).
    @inlinable
    @inline(__always)
    mutating func notify(_ state: @autoclosure () -> State) -> [Int]? {
        // Through its closure, even for a deduplicating subscription: this runs under the cell's lock,
        // and the lock's code, compiled for the child's types, is inlined into its caller only while it
        // stays this small. A branch to the subscription's check in place, inlined or called, left it
        // outlined: a raw observer's child cost about 20 instructions more (Docs/Performance.md, step
        // 118).
        guard let status = single?.observe(state()), status == .dead else { return nil }
        return [0]
    }

    /// For the second observer: moves the observer inside into slot 0 of a new list, and returns the
    /// list; `nil` when there is none (the next observer goes inside the node).
    ///
    /// The record has no gate (``ObserverRecord/subscription``), even for a subscription's observer,
    /// whose gate the cell does not keep; it needs none. Its gate knows slot 0, and the observer stays
    /// there while it lives: compacting moves a list's observers down in order, so the first one never
    /// moves.
    @inline(__always)
    mutating func movedIntoList() -> ObserverStorage<State>? {
        guard let single else { return nil }
        let made = ObserverStorage<State>.make(capacity: 2)
        _ = made.append(id: single.id, observe: single.observe)
        self.single = nil
        return made
    }

    /// Empties `slot`, if it is the observer inside's; returns `nil` when it held none. No index holds
    /// an observer inside: a node with an index has a list.
    @inline(__always)
    mutating func remove(at slot: Int) -> RemovedObserver? {
        guard slot == 0, single?.id != nil else { return nil }
        single = nil
        return .unindexed
    }

    /// 0 when the observer inside has `id`.
    @inline(__always)
    func slot(of id: UUID) -> Int? {
        single?.id == id ? 0 : nil
    }
}
