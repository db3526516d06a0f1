#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock, for state shared across threads outside a tree's queue (`CanopyTesting` uses
/// it too, hence `package`). The tree's inbox and a node's link have a lock of their own (``ShortLock``).
///
/// It plays the part of `Synchronization.Mutex`, which on Linux is built on raw futex calls that the
/// thread sanitizer cannot see, so every access under it is reported as a race. This box uses the
/// platform lock the sanitizer understands (`os_unfair_lock` on Darwin, `pthread_mutex_t` elsewhere).
/// As with `Mutex`, copy what you need out under the lock and call out after releasing it.
// Safety: Sendable by hand: `value` is reached only under `lock` (note below), and only a `Sendable`
// value can be put in (the `init` requires it).
package final class LockedValue<Value>: @unchecked Sendable {
    // Safety: `value` is read and written only inside `withLock`, between lock and unlock of `lock`,
    // which serialises every access. The lock lives in memory this object allocates once and never
    // moves. `Value` must be Sendable for the box to be shared (see the conditional init below).
    // Accesses to `value` cannot overlap: each happens under the lock, which is not recursive, so the
    // dynamic exclusivity check (about a hundred instructions per access) is turned off.
    #if canImport(Darwin)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
    // Safety: allocated and initialised in `init`, destroyed and freed in `deinit`; never moves.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    // Safety: touched only in `withLock`, between lock and unlock (the note above).
    @exclusivity(unchecked) private var value: Value

    package init(_ value: Value) where Value: Sendable {
        self.value = value
        lock = .allocate(capacity: 1)
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #else
        lock.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(lock, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&value)
    }

    /// Replaces the value with `newValue` and returns the old one, so that what it held is used (or
    /// released) after the lock, never under it.
    package func exchange(_ newValue: Value) -> Value {
        withLock { value in
            defer { value = newValue }
            return value
        }
    }
}
