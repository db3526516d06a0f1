import Synchronization

/// Keeps a subscription's deliveries in order: a delivery older than one already made is dropped.
///
/// Each state the debouncer lets through gets the next sequence number on the store's queue. On a
/// serial presentation queue the deliveries arrive in that order anyway; on a concurrent one a slow
/// props computation can finish after a newer one, and then its result is stale and must not
/// overwrite the newer props.
struct DeliverySequencer: ~Copyable, Sendable {
    private let lastDelivered = Atomic<UInt64>(0)

    init() {}

    /// Records `sequence` when it is newer than every sequence admitted before.
    ///
    /// - Parameter sequence: The delivery's number, starting at 1.
    /// - Returns: Whether the delivery may go ahead.
    func admit(_ sequence: UInt64) -> Bool {
        var current = lastDelivered.load(ordering: .relaxed)
        while sequence > current {
            let (exchanged, original) = lastDelivered.compareExchange(
                expected: current,
                desired: sequence,
                ordering: .relaxed
            )
            if exchanged {
                return true
            }
            current = original
        }
        return false
    }
}
