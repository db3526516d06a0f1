#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The observers and listening children of one node, in subscription order. Lives on the queue.
struct Listeners<State> {
    private struct Entry {
        let id: UUID
        let observe: Observer<State>.StateHandler
    }

    private struct Child {
        weak var node: (any StateListener<State>)?
    }

    private var observers: [Entry] = []
    private var children: [Child] = []
    /// When `children` reaches this size, ``add(_:)-child`` drops the children that are gone first.
    /// Doubling it after each pass keeps adding a child O(1) amortised however many children there are.
    private var childPruneThreshold = 8

    /// Whether nobody listens, so the node's state need not be computed.
    var isEmpty: Bool { observers.isEmpty && children.isEmpty }

    var observerCount: Int { observers.count }

    /// Adds `observer` unless one with its id is already here.
    mutating func add(_ observer: Observer<State>) {
        guard !contains(id: observer.id) else { return }
        observers.append(Entry(id: observer.id, observe: observer.observe))
    }

    /// Compares ids in place: iterating the array would copy, retain and release every entry.
    private func contains(id: UUID) -> Bool {
        observers.withUnsafeBufferPointer { entries in
            guard let first = entries.baseAddress else { return false }
            for index in entries.indices where (first + index).pointee.id == id {
                return true
            }
            return false
        }
    }

    mutating func remove(id: UUID) {
        observers.removeAll { $0.id == id }
    }

    /// Adds `child`, which must not be here already: a node attaches to its parent once
    /// (`ListeningNode.attachIfNeeded`).
    mutating func add(_ child: any StateListener<State>) {
        if children.count >= childPruneThreshold {
            children.removeAll { $0.node == nil }
            childPruneThreshold = max(8, 2 * children.count)
        }
        children.append(Child(node: child))
    }

    /// Sends `state` to every observer, then to every child, and reports observers that answered
    /// `.dead` and children that are gone.
    ///
    /// It does not mutate, so the node calls it on a copy without holding access to its storage while
    /// user callbacks run: an observer may use the node again (subscribe, dispatch) while it is called.
    ///
    /// It walks the entries in place: iterating the arrays would copy every entry and, unspecialised,
    /// go through the generic iterator.
    func send(_ state: State) -> ListenersCleanup {
        var cleanup = ListenersCleanup()
        observers.withUnsafeBufferPointer { entries in
            guard let first = entries.baseAddress else { return }
            // `pointee` borrows the entry where `entries[index]` would copy it (a retain and a release).
            for index in entries.indices where (first + index).pointee.observe(state) == .dead {
                cleanup.deadObserverIDs.append((first + index).pointee.id)
            }
        }
        children.withUnsafeBufferPointer { children in
            for index in children.indices {
                if let node = children[index].node {
                    node.parentDidChange(state)
                } else {
                    cleanup.childrenLeft = true
                }
            }
        }
        return cleanup
    }

    mutating func apply(_ cleanup: ListenersCleanup) {
        if !cleanup.deadObserverIDs.isEmpty {
            observers.removeAll { cleanup.deadObserverIDs.contains($0.id) }
        }
        if cleanup.childrenLeft {
            children.removeAll { $0.node == nil }
        }
    }
}

/// What ``Listeners/send(_:)`` found that must be tidied once the callbacks are done. Not nested in the
/// generic `Listeners`, so creating one needs no generic metadata.
struct ListenersCleanup {
    var deadObserverIDs: [UUID] = []
    var childrenLeft = false

    var isNeeded: Bool { childrenLeft || !deadObserverIDs.isEmpty }
}
