import Synchronization

/// Carries a value that need not be `Sendable` from one queue to another, exactly once.
///
/// The subscription pipeline computes props on the presentation queue and hands them to the delivery
/// queue; props are the user's type and are often not `Sendable`. The value is taken as `sending`, so
/// the compiler has checked that the sender keeps no other reference to it, and it leaves through a
/// `Mutex`, which hands it over as `sending` again.
final class Transfer<Value>: Sendable {
    private let cell: Mutex<Value?>

    init(_ value: sending Value) {
        cell = Mutex(value)
    }

    /// Returns the value. Call it once, on the receiving side.
    func take() -> sending Value {
        cell.withLock { value in
            guard let taken = value.take() else {
                preconditionFailure("Internal inconsistency: a transferred value was taken twice")
            }
            return taken
        }
    }
}
