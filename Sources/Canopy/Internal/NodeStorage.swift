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
    // other than the reducer, which cannot reach its node; `publish` calls observers and children from
    // local copies of the lists, so an observer that uses the node meanwhile overlaps no access. That is
    // why the dynamic exclusivity checks, about a hundred instructions per access, are turned off.
    let queue: DispatchQueue
    @exclusivity(unchecked) private var _observers: ObserverStorage<State>?
    @exclusivity(unchecked) private var _hasListeners = false
    @exclusivity(unchecked) private var _isAttached = false
    @exclusivity(unchecked) private var _children = ChildList()
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

    /// How many observers and children the node has.
    var listeners: ListenerCounts {
        assertOnQueue(queue)
        return ListenerCounts(observerCount: _observers?.count ?? 0, childCount: _children.count)
    }

    /// Adds `observer` unless one with its id is here already.
    func add(_ observer: Observer<State>) {
        assertOnQueue(queue)
        if let observers = _observers, observers.contains(id: observer.id) {
            return
        }
        makeObserversUniqueWithRoom()
        _observers.unsafelyUnwrapped.append(observer)
        _hasListeners = true
    }

    /// Adds `child`, which must not be here already.
    func add(_ child: any StateListener<State>) {
        assertOnQueue(queue)
        _children.add(child)
        _hasListeners = true
    }

    func removeObserver(id: UUID) {
        assertOnQueue(queue)
        removeObservers(ids: [id])
    }

    /// Sends `state` to the observers, then to the children, in subscription order, then drops the
    /// observers that answered `.dead` and the children that are gone.
    ///
    /// No access to the storage is held while observers run (they are called from a copy of the list),
    /// so an observer may use the node again (subscribe, dispatch, cancel). Nodes call it directly rather
    /// than through a protocol extension, which would make the runtime look up their generic
    /// conformance on every action.
    func publish(_ state: State) {
        assertOnQueue(queue)
        // The local reference keeps the list alive, and makes an observer that subscribes or cancels
        // meanwhile copy it rather than change it underneath.
        let observers = _observers
        let dead = observers?.notify(state) ?? []
        var someChildrenGone = false
        if !_children.isEmpty {
            let children = _children
            someChildrenGone = withUnsafePointer(to: state) { children.send(UnsafeRawPointer($0)) }
        }
        if !dead.isEmpty {
            removeObservers(ids: dead)
        }
        if someChildrenGone {
            _children.removeGone()
            updateHasListeners()
        }
    }

    private func removeObservers(ids: [UUID]) {
        guard _observers?.contains(where: ids) == true else { return }
        // Asked before binding the list to a local, which would itself be a second reference.
        let isUnique = isKnownUniquelyReferenced(&_observers)
        let observers = _observers.unsafelyUnwrapped
        if isUnique {
            observers.remove(ids: ids)
        } else {
            let copy = observers.copy(capacity: observers.count)
            copy.remove(ids: ids)
            _observers = copy
        }
        updateHasListeners()
    }

    /// Makes `_observers` a list that only this storage references, with room for one more.
    private func makeObserversUniqueWithRoom() {
        guard _observers != nil else {
            // Most nodes have one or two observers; the list doubles when it must.
            _observers = ObserverStorage.make(capacity: 1)
            return
        }
        // Asked before binding the list to a local, which would itself be a second reference.
        let isUnique = isKnownUniquelyReferenced(&_observers)
        let observers = _observers.unsafelyUnwrapped
        if !isUnique || !observers.hasRoom {
            _observers = observers.copy(capacity: observers.hasRoom ? observers.count + 1 : 2 * observers.count)
        }
    }

    private func updateHasListeners() {
        _hasListeners = (_observers?.count ?? 0) > 0 || !_children.isEmpty
    }
}
