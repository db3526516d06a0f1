import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a node keeps on its tree's queue: its own slice of state, who listens to it, and whether it has
/// registered with its parent.
///
/// A confined box like ``QueueConfined``, but a class with one field per part rather than a box around a
/// struct. Canopy's generic code runs unspecialised, and there a field of a generic struct is located
/// through the struct's metadata, which the runtime finds with a hashed cache lookup of hundreds of
/// instructions; a field of a class is located through the object itself. The checks made for every
/// action (``hasListeners``, ``local``) read their field directly.
final class NodeStorage<State, Local>: @unchecked Sendable {
    // Safety: the stored properties below are private and reached only through the members of this
    // class, which are called only on `queue`, the tree's serial queue; it serialises every access, and
    // debug builds check it with `dispatchPrecondition`. No access is held across a call out to user code
    // other than the reducer, which cannot reach its node (``listeners`` hands out a copy for the node to
    // call observers with), so accesses never overlap; that is why the dynamic exclusivity checks, about a
    // hundred instructions per access, are turned off.
    let queue: DispatchQueue
    @exclusivity(unchecked) private var _hasListeners = false
    @exclusivity(unchecked) private var _isAttached = false
    @exclusivity(unchecked) private var _listeners = Listeners<State>()
    @exclusivity(unchecked) private var _local: Local

    init(local: Local, queue: DispatchQueue) {
        self._local = local
        self.queue = queue
    }

    /// The node's own state (the root's state, a child's local state).
    var local: Local {
        _read {
            assertOnQueue(queue)
            yield _local
        }
        _modify {
            assertOnQueue(queue)
            yield &_local
        }
    }

    /// Whether anyone listens to the node's state.
    var hasListeners: Bool {
        assertOnQueue(queue)
        return _hasListeners
    }

    /// Whether the node has registered with its parent to receive state changes.
    var isAttached: Bool {
        get {
            assertOnQueue(queue)
            return _isAttached
        }
        set {
            assertOnQueue(queue)
            _isAttached = newValue
        }
    }

    /// A copy of the listeners.
    var listeners: Listeners<State> {
        assertOnQueue(queue)
        return _listeners
    }

    /// The storage itself: tests written when this was a `QueueConfined<NodeStorage>` read
    /// `storage.value.listeners`.
    var value: NodeStorage<State, Local> { self }

    /// Sends `state` to the observers, then to the children, in subscription order, then drops the
    /// observers that answered `.dead` and the children that are gone.
    ///
    /// It sends through a copy of the listeners and holds no access meanwhile, so an observer may use the
    /// node again (subscribe, dispatch, cancel) while it is called. Nodes call it directly rather than
    /// through a protocol extension, which would make the runtime look up their generic conformance on
    /// every action.
    func publish(_ state: State) {
        assertOnQueue(queue)
        let listeners = _listeners
        let cleanup = listeners.send(state)
        if cleanup.isNeeded {
            apply(cleanup)
        }
    }

    func add(_ observer: Observer<State>) {
        assertOnQueue(queue)
        _listeners.add(observer)
        _hasListeners = true
    }

    func add(_ child: any StateListener<State>) {
        assertOnQueue(queue)
        _listeners.add(child)
        _hasListeners = true
    }

    func removeObserver(id: UUID) {
        assertOnQueue(queue)
        _listeners.remove(id: id)
        _hasListeners = !_listeners.isEmpty
    }

    func apply(_ cleanup: ListenersCleanup) {
        assertOnQueue(queue)
        _listeners.apply(cleanup)
        _hasListeners = !_listeners.isEmpty
    }
}
