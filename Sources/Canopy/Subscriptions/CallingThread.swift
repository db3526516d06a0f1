import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The thread that is calling a tree's observers, if any: noted once per walk down the tree (and around
/// a new observer's first call), so that a ``CallGate`` need not note its caller on each call.
///
/// Every call of an observer happens on the tree's queue inside one of those two spans. So when a gate's
/// call is in progress, the thread noted here is the one making it, and a thread that finds its own id
/// here is inside that call (or inside a call of the same walk that called it).
final class CallingThread: Sendable {
    // Set and cleared only on the tree's queue, by the one thread running the walk. Another thread
    // reading it sees either that thread's id, 0, or an older walker's id; never its own id unless it
    // is the walker itself, since a thread reads its own last write (and every span clears the value
    // before it ends, the outermost back to 0).
    private let thread = Atomic<UInt>(0)

    init() {}

    /// On the queue: notes the current thread as the one calling observers until ``leave(restoring:)``.
    ///
    /// - Returns: What was noted before, for `leave(restoring:)`.
    @inline(__always)
    func enter() -> UInt {
        thread.exchange(Self.currentID, ordering: .relaxed)
    }

    /// On the queue: the calls are over; notes again what ``enter()`` returned (0 unless the spans nest).
    @inline(__always)
    func leave(restoring previous: UInt) {
        thread.store(previous, ordering: .relaxed)
    }

    /// Whether the current thread is the one calling observers now.
    var isCurrent: Bool {
        thread.load(ordering: .relaxed) == Self.currentID
    }

    /// The current thread's identity, as a number.
    static var currentID: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
