#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A node's observers, in subscription order, in one heap block: a copy-on-write list that `NodeStorage`
/// manages.
///
/// Canopy's generic code runs unspecialised, and there each call on an array of a generic struct
/// (`[Observer<State>]`) passes the element's metadata, which the runtime finds with a hashed lookup of
/// several hundred instructions: once per node per action. The methods of this class find it through the
/// object instead, and walk the observers in place.
final class ObserverStorage<State>: ManagedBuffer<Int, Observer<State>> {
    // The header is the number of observers; the first `header` elements are initialised.

    deinit {
        withUnsafeMutablePointers { count, observers in
            _ = observers.deinitialize(count: count.pointee)
        }
    }

    /// An empty list with room for at least `capacity` observers.
    static func make(capacity: Int) -> ObserverStorage<State> {
        unsafeDowncast(create(minimumCapacity: capacity) { _ in 0 }, to: ObserverStorage<State>.self)
    }

    var count: Int { header }

    /// Whether another observer fits without growing.
    var hasRoom: Bool { header < capacity }

    /// A copy with room for at least `capacity` observers.
    func copy(capacity: Int) -> ObserverStorage<State> {
        let copy = Self.make(capacity: Swift.max(capacity, header))
        withUnsafeMutablePointers { count, observers in
            copy.withUnsafeMutablePointers { copyCount, copyObservers in
                copyObservers.initialize(from: observers, count: count.pointee)
                copyCount.pointee = count.pointee
            }
        }
        return copy
    }

    /// Appends `observer`; there must be room (``hasRoom``).
    func append(_ observer: Observer<State>) {
        withUnsafeMutablePointers { count, observers in
            (observers + count.pointee).initialize(to: observer)
            count.pointee += 1
        }
    }

    func contains(id: UUID) -> Bool {
        withUnsafeMutablePointers { count, observers in
            for index in 0..<count.pointee where (observers + index).pointee.id == id {
                return true
            }
            return false
        }
    }

    /// Whether any observer has an id in `ids`.
    func contains(where ids: [UUID]) -> Bool {
        ids.contains(where: contains(id:))
    }

    /// Removes, in place, the observers whose id is in `ids`, keeping the others' order.
    func remove(ids: [UUID]) {
        withUnsafeMutablePointers { count, observers in
            var kept = 0
            for index in 0..<count.pointee {
                if ids.contains((observers + index).pointee.id) {
                    (observers + index).deinitialize(count: 1)
                } else {
                    if kept != index {
                        (observers + kept).moveInitialize(from: observers + index, count: 1)
                    }
                    kept += 1
                }
            }
            count.pointee = kept
        }
    }

    /// Calls every observer with `state`, in order; returns the ids of those that answered `.dead`.
    ///
    /// Each entry is borrowed in place (`entries[index]` on an array would copy it: a retain and a
    /// release). The caller holds a reference to this storage meanwhile, so an observer that subscribes
    /// or cancels makes the node copy it rather than change it underneath.
    func notify(_ state: State) -> [UUID] {
        var dead: [UUID] = []
        withUnsafeMutablePointers { count, observers in
            for index in 0..<count.pointee where (observers + index).pointee.observe(state) == .dead {
                dead.append((observers + index).pointee.id)
            }
        }
        return dead
    }
}
