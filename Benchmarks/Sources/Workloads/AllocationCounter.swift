import Synchronization

/// Heap traffic during a measured region.
public struct HeapDelta: Sendable {
    /// Calls to `malloc` and friends.
    public var allocations: Int
    /// Calls to `free`.
    public var frees: Int
    /// Requested bytes allocated minus requested bytes freed: what the region left on the heap.
    public var retainedBytes: Int
    /// Allocations minus frees: how many blocks the region left on the heap.
    public var retainedAllocations: Int { allocations - frees }

    /// Creates a delta from its parts.
    public init(allocations: Int, frees: Int, retainedBytes: Int) {
        self.allocations = allocations
        self.frees = frees
        self.retainedBytes = retainedBytes
    }
}

/// Something that counts every allocation in the process, such as package-benchmark's malloc
/// interposer.
public protocol HeapCounter: Sendable {
    /// Starts counting and returns an opaque reading of the counters.
    func begin() -> HeapDelta
    /// Stops counting and returns what happened since `start`.
    func end(since start: HeapDelta) -> HeapDelta
}

/// Counts allocations around a region during a counting pass, when a ``HeapCounter`` was installed, and
/// reports `nil` otherwise.
///
/// The benchmark suite installs the malloc interposer that package-benchmark preloads, and runs each
/// workload twice: a timed pass that counts nothing, then a counting pass inside ``countingPass(_:)``
/// whose times it discards. So the timings never pay for the counter. The `canopy-workload` tool installs
/// none, so its runs under callgrind execute no counting code. The counters are process-wide:
/// allocations made on a store's queue are included.
public enum AllocationCounter {
    private static let installed = Mutex<(any HeapCounter)?>(nil)
    private static let counting = Atomic<Bool>(false)

    /// Makes ``measure(_:)`` count with `counter` from now on.
    ///
    /// - Parameter counter: The process's allocation counter.
    public static func install(_ counter: any HeapCounter) {
        installed.withLock { $0 = counter }
    }

    /// Runs `body` as a counting pass: every ``measure(_:)`` inside it counts the heap traffic.
    ///
    /// - Parameter body: The workload run whose allocations are wanted (its timings are not).
    /// - Returns: What `body` returned.
    /// - Throws: What `body` throws.
    public static func countingPass<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        counting.store(true, ordering: .relaxed)
        defer { counting.store(false, ordering: .relaxed) }
        return try body()
    }

    /// Runs `body` and returns its result with the heap traffic it caused, if it can be counted: in a
    /// ``countingPass(_:)`` with a counter installed.
    ///
    /// - Parameter body: The region to measure.
    /// - Returns: What `body` returned, and the heap traffic or `nil`.
    /// - Throws: What `body` throws.
    public static func measure<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> (Result, HeapDelta?) {
        guard counting.load(ordering: .relaxed), let counter = installed.withLock({ $0 }) else {
            return (try body(), nil)
        }
        let start = counter.begin()
        let result: Result
        do {
            result = try body()
        } catch {
            _ = counter.end(since: start)
            throw error
        }
        return (result, counter.end(since: start))
    }
}
