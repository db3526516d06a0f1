/// Work that runs at most once and can be cancelled before it runs; cancelling drops the closure at
/// once, so whatever it captured is released without waiting for the deadline.
final class PendingWork: Sendable {
    private let work: LockedValue<(@Sendable () -> Void)?>

    init(_ work: @escaping @Sendable () -> Void) {
        self.work = LockedValue(work)
    }

    func run() {
        work.exchange(nil)?()
    }

    /// Drops the closure; what it captured is released here, after the lock.
    func cancel() {
        _ = work.exchange(nil)
    }
}
