#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A node's observers: the one observer of a node that has had no more, inside the node; a list
/// (``ObserverStorage``) once a second one comes.
///
/// Most nodes have one observer, a child store's view or its subscription, and a list of one takes a
/// heap block of 56 bytes where the observer inside the node takes 32 (W4 counts them per child store).
/// Slots are numbered as in the list: the observer inside is slot 0, and moves to the list's slot 0
/// when the list is made, so a slot never changes while its observer is there. A node that had a list
/// keeps it.
///
/// Every member is inlined: the node's code is generic and runs unspecialised, and a call to a method
/// of a generic struct from there passes the struct's type metadata, which the runtime looks up by
/// hashing (several hundred instructions; ``ObserverStorage``, a class, finds it through the object).
@usableFromInline
struct NodeObservers<State> {
    /// The node's observer while it has had no other one (`list` is `nil`); `nil` when it has none.
    @usableFromInline
    var single: Observer<State>?
    /// The node's observers once it has had two.
    @usableFromInline
    var list: ObserverStorage<State>?

    @usableFromInline
    init() {}

    /// Whether the node has neither an observer nor a list.
    @inline(__always)
    var isEmpty: Bool {
        // The observer's id, read in place: `single == nil` copied the observer out first (a retain and
        // a release of its closure's context).
        list == nil && single?.id == nil
    }

    /// The number of observers.
    @inline(__always)
    var live: Int {
        if let list {
            return list.live
        }
        return single == nil ? 0 : 1
    }

    /// Calls every observer with `state`, in order; returns the slots of those that answered `.dead`,
    /// or `nil` when none did.
    ///
    /// Inlined where it is called, like ``ObserverStorage/notify(_:)``: into a child's composition,
    /// compiled for the state's type, and into the node's own notification.
    @inlinable
    @inline(__always)
    mutating func notify(_ state: State) -> [Int]? {
        if list != nil {
            return list?.notify(state)
        }
        guard let status = ObserverStorage.call(&single, with: state), status == .dead else { return nil }
        return [0]
    }

    /// Makes room for one more observer: moves the single observer into a new list when there is one,
    /// and returns the list when there is one afterwards.
    ///
    /// - Returns: The list to add to, or `nil` when the observer goes inside the node (there is none).
    @inline(__always)
    mutating func listForOneMore() -> ObserverStorage<State>? {
        if list == nil, let single {
            let made = ObserverStorage<State>.make(capacity: 2)
            _ = made.append(single)
            self.single = nil
            list = made
        }
        return list
    }

    /// Empties `slot`, which holds an observer; returns that observer's id.
    @inline(__always)
    mutating func remove(at slot: Int) -> UUID? {
        if let list {
            return list.remove(at: slot)
        }
        guard slot == 0, let id = single?.id else { return nil }
        single = nil
        return id
    }

    /// The slot of the observer with `id`, found by scanning (the node's index finds it in a long list).
    @inline(__always)
    func slot(of id: UUID) -> Int? {
        if let list {
            return list.slot(of: id)
        }
        return single?.id == id ? 0 : nil
    }
}

// Not `Sendable`: a node keeps its observers, and uses them only on the tree's queue.
@available(*, unavailable)
extension NodeObservers: Sendable {}
