#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Who listens to a node: its observers (`ObserverStorage`) and its listening children (`ChildList`), in
// subscription order. Both live in the node's `NodeStorage`, on the queue.
//
// Canopy's generic code runs unspecialised, and there every call on an array of a generic struct passes
// that struct's metadata, which the runtime finds with a hashed lookup. So the children are kept in a
// non-generic array, reached through `ErasedStateListener`.

/// A node's listening children, held weakly, in the order they attached.
struct ChildList {
    private struct Child {
        weak var node: (any ErasedStateListener)?
    }

    private var children: [Child] = []
    /// When `children` reaches this size, ``add(_:)`` drops the children that are gone first. Doubling it
    /// after each pass keeps adding a child O(1) amortised however many children there are.
    private var pruneThreshold = 8

    var isEmpty: Bool { children.isEmpty }

    var count: Int { children.count }

    /// Adds `child`, which must not be here already: a node attaches to its parent once
    /// (`ListeningNode.attachIfNeeded`).
    mutating func add(_ child: any ErasedStateListener) {
        if children.count >= pruneThreshold {
            removeGone()
            pruneThreshold = max(8, 2 * children.count)
        }
        children.append(Child(node: child))
    }

    mutating func removeGone() {
        children.removeAll { $0.node == nil }
    }

    /// Sends the state at `state` to every child still alive; returns whether some are gone.
    ///
    /// Only the node whose children these are calls it, with its own state, which is every child's
    /// `ParentState` (``ErasedStateListener``).
    ///
    /// It reads each weak reference in place: iterating the array would copy every entry, and copying a
    /// weak reference is two more calls into the runtime.
    func send(_ state: UnsafeRawPointer) -> Bool {
        children.withUnsafeBufferPointer { children in
            guard let first = children.baseAddress else { return false }
            var someGone = false
            for index in children.indices {
                if let node = UnsafeMutablePointer(mutating: first + index).pointee.node {
                    node.parentDidChange(at: state)
                } else {
                    someGone = true
                }
            }
            return someGone
        }
    }
}

/// The sizes of a node's listener lists (tests look at them).
struct ListenerCounts {
    var observerCount: Int
    var childCount: Int
}
