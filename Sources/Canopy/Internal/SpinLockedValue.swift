// Public: the lock is inlined into other modules (the action recorder's middleware), which see `Atomic`.
public import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock that is one atomic flag: for critical sections of a few dozen
/// instructions that never call out, such as the action recorder's append, entered on every action.
///
/// Taking and releasing an uncontended `pthread_mutex_t` costs about 60 instructions; this lock costs
/// one compare-and-exchange and one store. A thread that finds it taken spins briefly, then yields the
/// processor until it is free, so a holder that was preempted is not starved by its waiters. Use
/// ``LockedValue`` for anything longer: a waiter here burns its time slice instead of sleeping. On
/// Darwin prefer ``LockedValue`` (`os_unfair_lock`), as cheap and aware of priorities.
///
/// The flag is a `Synchronization.Atomic` (acquire on lock, release on unlock), which the thread
/// sanitizer sees, unlike `Mutex`'s futex calls on Linux.
@usableFromInline
// Safety: Sendable by hand: `value` is reached only under the flag (note below), and only a `Sendable`
// value can be put in (the `init` requires it).
final class SpinLockedValue<Value>: @unchecked Sendable {
    // Safety: `value` is read and written only inside `withLock`, between the acquiring exchange of
    // `isLocked` from `false` to `true` and the releasing store of `false`, which serialises every
    // access and orders each holder's writes before the next holder's reads. The lock is not recursive
    // and `body` never re-enters it, so accesses cannot overlap and the dynamic exclusivity check is
    // turned off. `Value` must be Sendable for the box to be shared (see `init`). The two fields are
    // `@usableFromInline` only so that `withLock` can be inlined into other modules; nothing else touches
    // them, but for a caller of `lock()` and `unlock()` (the action recorder), which touches `value` only
    // between the two, as `withLock` does.
    @usableFromInline let isLocked = Atomic<Bool>(false)
    // Safety: touched only while `isLocked` is held by the caller (the note above).
    @usableFromInline @exclusivity(unchecked) var value: Value

    @usableFromInline
    init(_ value: Value) where Value: Sendable {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must be short and must not call out.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        if !isLocked.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            waitForLock()
        }
        defer { isLocked.store(false, ordering: .releasing) }
        return try body(&value)
    }

    /// Takes the lock, for a critical section written out between `lock()` and ``unlock()`` rather than
    /// in a closure: one that moves a value into ``value``, which a closure could only copy. The section
    /// must be short, must not call out, and must end with ``unlock()`` on every path.
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
