// Public: the lock is inlined into other modules (the action recorder's middleware), which see `Atomic`.
public import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A lock that is one atomic flag: for critical sections of a few dozen instructions that never call out,
/// entered on every action (the inbox's push on Linux, the action recorder's append).
///
/// Taking and releasing an uncontended `pthread_mutex_t` costs about 60 instructions; this lock costs one
/// compare-and-exchange and one store. A thread that finds it taken spins briefly, then yields the
/// processor until it is free, so a holder that was preempted is not starved by its waiters. The flag is
/// a `Synchronization.Atomic` (acquire on lock, release on unlock), which the thread sanitizer sees,
/// unlike `Mutex`'s futex calls on Linux. Use ``LockedValue`` for anything longer: a waiter here burns
/// its time slice instead of sleeping.
@usableFromInline
struct SpinLock: ~Copyable, Sendable {
    @usableFromInline let isLocked = Atomic<Bool>(false)

    @usableFromInline
    init() {}

    /// Takes the lock. The section it starts must be short, must not call out, and must end with
    /// ``unlock()`` on every path.
    @inlinable @inline(__always)
    func lock() {
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            waitForLock()
        }
    }

    /// Releases the lock taken with ``lock()``.
    @inlinable @inline(__always)
    func unlock() {
        isLocked.store(false, ordering: .releasing)
    }

    /// Spins, then yields, until the lock is taken.
    @usableFromInline @inline(never)
    func waitForLock() {
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
}
