package import Dispatch

/// A value that may be read or written only on `queue`: the state a subscription's pipeline or an effect
/// runner keeps on the tree's queue, so that the classes owning it stay plain `Sendable` types.
///
/// Its accesses come from observer calls during the tree's drain and from timers scheduled straight on
/// the queue, so each access checks the queue, in every build: a compare of the current queue, made
/// once per accepted state or timer, never per action. `CanopyPersistence` keeps its writers' state on
/// the tree's queue in it too, hence `package`.
// Safety: Sendable by hand: `_value` is confined to `queue`, checked on every access (note below).
package final class QueueConfined<Value>: @unchecked Sendable {
    // Safety: `_value` is reached only through `value`, whose accessors check, in every build, that they
    // run on `queue` (the tree's serial queue), which serialises every access.
    package let queue: DispatchQueue
    private var _value: Value

    package init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        self._value = value
    }

    package var value: Value {
        get {
            dispatchPrecondition(condition: .onQueue(queue))
            return _value
        }
        _modify {
            dispatchPrecondition(condition: .onQueue(queue))
            yield &_value
        }
    }
}

/// Traps in debug builds when the caller is not running on `queue`.
@inline(__always)
func assertOnQueue(_ queue: DispatchQueue) {
    #if DEBUG
    dispatchPrecondition(condition: .onQueue(queue))
    #endif
}
