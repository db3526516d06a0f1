/// Carries a value that need not be `Sendable` from one queue to another, exactly once.
///
/// The subscription pipeline computes props on the presentation queue and hands them to the delivery
/// queue; props are the user's type and are often not `Sendable`.
// Safety: Sendable by hand: it carries a `sending` value handed over once (note below).
final class Transfer<Value>: @unchecked Sendable {
    // Safety: `init` takes the value as `sending`, so the compiler has checked that the sender keeps no
    // other reference to it (it is in a disconnected region). The pipeline calls `take()` once, on the
    // receiving queue, after the queue hop that publishes this box; nothing else reads `value`.
    private let value: Value

    init(_ value: sending Value) {
        self.value = value
    }

    /// Returns the value. Call it once, on the receiving side.
    func take() -> sending Value {
        value
    }
}
