import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock of a tree's inbox: held for a few dozen instructions on every dispatch, by any thread.
///
/// On Darwin a `Mutex` (`os_unfair_lock`: as cheap as a flag, and it lends a preempted holder the
/// waiter's priority). On Linux one atomic flag: taking and releasing it costs one compare-and-exchange
/// and one store, where an uncontended `pthread_mutex_t` costs about 60 instructions; and the thread
/// sanitizer sees its acquire and release, where it cannot see `Mutex`'s futex calls there. A thread
/// that finds the flag taken spins briefly, then yields the processor until it is free, so a holder
/// that was preempted is not starved by its waiters. The sections it guards never call out.
struct InboxLock: ~Copyable, Sendable {
    #if canImport(Darwin)
    private let mutex = Mutex<Void>(())
    #else
    private let isLocked = Atomic<Bool>(false)
    #endif

    /// Runs `body` while holding the lock. `body` must be short and must not call out.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        return try mutex.withLock { _ in try body() }
        #else
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            waitForLock()
        }
        defer { isLocked.store(false, ordering: .releasing) }
        return try body()
        #endif
    }

    #if !canImport(Darwin)
    /// Spins, then yields, until the lock is taken.
    @inline(never)
    private func waitForLock() {
        var attempts = 0
        while true {
            // Wait for the flag to clear with plain loads (no cache-line ping-pong), then try again.
            if !isLocked.load(ordering: .relaxed),
                isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
            {
                return
            }
            attempts += 1
            if attempts >= Self.spinsBeforeYielding {
                sched_yield()
            }
        }
    }

    /// How many times a waiter checks the flag before it starts yielding the processor between checks.
    private static var spinsBeforeYielding: Int { 100 }
    #endif
}
