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
///
/// The value and the lock share one heap block, a ``Storage``; copies of the box share it.
// Safety: Sendable by hand (`ManagedBuffer`, and so `Storage`, is not `Sendable`): the value is reached
// only under the lock (`withLock`, the one access to it after `Storage.make`), which serialises every
// access and orders each holder's writes before the next holder's reads; only a `Sendable` value can be
// put in (the `init` requires it).
package struct LockedValue<Value>: @unchecked Sendable {
    /// The lock the platform provides, kept inside ``Storage``.
    #if canImport(Darwin)
    typealias PlatformLock = os_unfair_lock
    #else
    typealias PlatformLock = pthread_mutex_t
    #endif

    /// The value, as the buffer's header, and the lock, as its one element: both at fixed places in the
    /// object, so the lock's address never changes and no memory is allocated beside the object.
    final class Storage: ManagedBuffer<Value, PlatformLock> {
        /// A new block holding `value` and an unlocked lock.
        static func make(_ value: Value) -> Storage {
            let made = create(minimumCapacity: 1) { _ in value }
            // `create` returns an instance of the class it is called on, typed as `ManagedBuffer`: the
            // cast always succeeds, and runs once per box.
            guard let storage = made as? Storage else {
                preconditionFailure("Internal inconsistency: ManagedBuffer.create made a \(type(of: made))")
            }
            storage.withUnsafeMutablePointerToElements { lock in
                #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
                #else
                lock.initialize(to: pthread_mutex_t())
                let status = pthread_mutex_init(lock, nil)
                precondition(status == 0, "pthread_mutex_init failed with \(status)")
                #endif
            }
            return storage
        }

        // The header, the value, is a stored property of `ManagedBuffer` and goes with the object; the
        // element, the lock, is the subclass's to destroy.
        deinit {
            withUnsafeMutablePointerToElements { lock in
                #if !canImport(Darwin)
                pthread_mutex_destroy(lock)
                #endif
                _ = lock.deinitialize(count: 1)
            }
        }

        /// Runs `body` with exclusive access to the value. Reached through the block's addresses, an
        /// access the runtime does not track, so the lock alone keeps accesses apart: it is not
        /// recursive, and no two holders overlap.
        @inline(__always)
        func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
            try withUnsafeMutablePointers { value, lock in
                #if canImport(Darwin)
                os_unfair_lock_lock(lock)
                defer { os_unfair_lock_unlock(lock) }
                #else
                pthread_mutex_lock(lock)
                defer { pthread_mutex_unlock(lock) }
                #endif
                return try body(&value.pointee)
            }
        }
    }

    private let storage: Storage

    package init(_ value: Value) where Value: Sendable {
        storage = Storage.make(value)
    }

    /// Runs `body` with exclusive access to the value.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
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
