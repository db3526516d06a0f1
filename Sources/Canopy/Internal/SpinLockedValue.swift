/// A value guarded by a ``SpinLock``: for critical sections of a few dozen instructions that never call
/// out, such as the action recorder's append, entered on every action. On Darwin prefer ``LockedValue``
/// (`os_unfair_lock`), as cheap and aware of priorities.
///
/// Not `Mutex`: on Linux its futex calls hide the hand-over from the thread sanitizer. The value lives
/// in memory this owner allocates once and frees in its `deinit`; a stored `var` of a class would get a
/// dynamic exclusivity check on every access from the app's module, where the recorder's append is
/// inlined, and a `let` cannot change.
@usableFromInline
// Safety: Sendable by hand: the value is reached only under the lock (note below), and only a
// `Sendable` value can be put in (the `init` requires it).
final class SpinLockedValue<Value>: @unchecked Sendable {
    @usableFromInline let spinLock = SpinLock()
    // Safety: allocated and initialised for one value in `init`, deinitialised and freed in `deinit`,
    // never moved; read and written only while `spinLock` is held (`withLock`, or between `lock()` and
    // `unlock()`), which serialises every access and orders each holder's writes before the next
    // holder's reads. The lock is not recursive and the sections never re-enter it, so no two accesses
    // overlap. The memory belongs to this object alone, which frees it once.
    @usableFromInline let storage: UnsafeMutablePointer<Value>

    @usableFromInline
    init(_ value: Value) where Value: Sendable {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with exclusive access to the value. `body` must be short and must not call out.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        spinLock.lock()
        defer { spinLock.unlock() }
        return try body(&storage.pointee)
    }

    /// Takes the lock, for a critical section written out between `lock()` and ``unlock()`` rather than
    /// in a closure: one that moves a value into the value at ``storage``, which a closure could only
    /// copy. The section
    /// must be short, must not call out, and must end with ``unlock()`` on every path.
    @inlinable @inline(__always)
    func lock() {
        spinLock.lock()
    }

    /// Releases the lock taken with ``lock()``.
    @inlinable @inline(__always)
    func unlock() {
        spinLock.unlock()
    }
}
