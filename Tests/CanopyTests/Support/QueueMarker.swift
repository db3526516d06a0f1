import Dispatch

/// Tells whether the current code runs on a given queue, through a `DispatchSpecificKey`.
final class QueueMarker: @unchecked Sendable {
    // Safety: test-only; `key` is set once in `init` and only read afterwards, and Dispatch's specific
    // storage is thread-safe.
    private let key = DispatchSpecificKey<UInt8>()

    init(_ queue: DispatchQueue) {
        queue.setSpecific(key: key, value: 1)
    }

    /// Whether the caller runs on the marked queue.
    var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }
}
