/// A value guarded by a ``SpinLock``: for critical sections of a few dozen instructions that never call
/// out, such as the action recorder's append, entered on every action. On Darwin prefer ``LockedValue``
/// (`os_unfair_lock`), as cheap and aware of priorities.
@usableFromInline
// Safety: Sendable by hand: `value` is reached only under the flag (note below), and only a `Sendable`
// value can be put in (the `init` requires it).
final class SpinLockedValue<Value>: @unchecked Sendable {
    // Safety: `value` is read and written only inside `withLock`, between `spinLock`'s acquiring
    // `lock()` and its releasing `unlock()`, which serialises every
    // access and orders each holder's writes before the next holder's reads. The lock is not recursive
    // and `body` never re-enters it, so accesses cannot overlap and the dynamic exclusivity check is
    // turned off. `Value` must be Sendable for the box to be shared (see `init`). The two fields are
    // `@usableFromInline` only so that `withLock` can be inlined into other modules; nothing else touches
    // them, but for a caller of `lock()` and `unlock()` (the action recorder), which touches `value` only
    // between the two, as `withLock` does.
    @usableFromInline let spinLock = SpinLock()
    // Safety: touched only while `spinLock` is held by the caller (the note above).
    @usableFromInline @exclusivity(unchecked) var value: Value

    @usableFromInline
    init(_ value: Value) where Value: Sendable {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value. `body` must be short and must not call out.
    @inlinable @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        spinLock.lock()
        defer { spinLock.unlock() }
        return try body(&value)
    }

    /// Takes the lock, for a critical section written out between `lock()` and ``unlock()`` rather than
    /// in a closure: one that moves a value into ``value``, which a closure could only copy. The section
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
