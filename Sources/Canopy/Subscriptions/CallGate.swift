#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Lets a subscription's handler be called until the gate is closed, and makes closing wait out a call
/// already in progress, so that once ``close()`` returns the handler is never running and never runs
/// again.
///
/// Each call holds a recursive lock for its duration: ``close()`` from another thread takes the same
/// lock, so it returns only after the call in progress (if any) has finished; ``close()`` from inside
/// the handler itself takes the lock again on the same thread and returns at once (the call goes on to
/// its end, and no later call starts). The uncontended cost is one lock and one unlock per call, with no
/// allocation. A handler must not wait for a thread that is closing its own gate (as with any lock).
final class CallGate: @unchecked Sendable {
    // Safety: `open` is read and written only while `lock` is held (in `withCall` and `close`), so
    // accesses are serialised. The lock is recursive so that `close()` from inside a call (same thread,
    // lock already held) does not deadlock; nothing else re-enters. The lock lives in memory allocated
    // once here and freed in `deinit`, and never moves.
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    @exclusivity(unchecked) private var open = true
    /// Mirrors `!open` for readers that must not wait for a call in progress (`Subscription.isCancelled`).
    let flag = CancellationFlag()

    init() {
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        defer { pthread_mutexattr_destroy(&attributes) }
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(lock, &attributes)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` unless the gate is closed; returns whether it ran.
    @inline(__always)
    func withCall(_ body: () -> Void) -> Bool {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        guard open else { return false }
        body()
        return true
    }

    /// Closes the gate: returns once no call is in progress (other than the caller's own, when called
    /// from inside the handler), and no call starts afterwards. Closing again does nothing more.
    func close() {
        flag.cancel()
        pthread_mutex_lock(lock)
        open = false
        pthread_mutex_unlock(lock)
    }
}
