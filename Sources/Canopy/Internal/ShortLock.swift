import Synchronization

/// A lock for sections of a few dozen instructions that never call out: a tree's inbox, taken on every
/// dispatch by any thread, and a node's link (``NodeLink``).
///
/// On Darwin a `Mutex` (`os_unfair_lock`: as cheap as a flag, and it lends a preempted holder the
/// waiter's priority). On Linux a ``SpinLock``, one atomic flag, which the thread sanitizer sees where it
/// cannot see `Mutex`'s futex calls. The sections it guards never call out.
struct ShortLock: ~Copyable, Sendable {
    #if canImport(Darwin)
    private let mutex = Mutex<Void>(())
    #else
    private let spinLock = SpinLock()
    #endif

    /// Runs `body` while holding the lock. `body` must be short and must not call out.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        return try mutex.withLock { _ in try body() }
        #else
        spinLock.lock()
        defer { spinLock.unlock() }
        return try body()
        #endif
    }
}
