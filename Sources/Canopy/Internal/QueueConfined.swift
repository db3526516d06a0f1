import Dispatch

/// A value that may be read or written only on `queue`.
///
/// Every piece of state that belongs to a store tree's serial queue lives in one of these boxes, so the
/// classes that own them stay plain `Sendable` types.
final class QueueConfined<Value>: @unchecked Sendable {
    // Safety: `_value` is reached only through `value`, whose accessors are called only on `queue` (the
    // tree's serial queue), which serialises every access. Debug builds check this with
    // `dispatchPrecondition`; release builds skip the check because it sits on the hot path.
    let queue: DispatchQueue
    private var _value: Value

    init(_ value: Value, queue: DispatchQueue) {
        self.queue = queue
        self._value = value
    }

    var value: Value {
        get {
            assertOnQueue(queue)
            return _value
        }
        _modify {
            assertOnQueue(queue)
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
