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

/// Counts allocations around a region when a ``HeapCounter`` was installed, and reports `nil` otherwise.
///
/// The benchmark suite installs the malloc interposer that package-benchmark preloads. The
/// `canopy-workload` tool installs none, so its runs under callgrind execute no counting code. The
/// counters are process-wide: allocations made on a store's queue are included.
public enum AllocationCounter {
    private static let installed = Mutex<(any HeapCounter)?>(nil)

    /// Makes ``measure(_:)`` count with `counter` from now on.
    ///
    /// - Parameter counter: The process's allocation counter.
    public static func install(_ counter: any HeapCounter) {
        installed.withLock { $0 = counter }
    }

    /// Runs `body` and returns its result with the heap traffic it caused, if it can be counted.
    ///
    /// - Parameter body: The region to measure.
    /// - Returns: What `body` returned, and the heap traffic or `nil`.
    /// - Throws: What `body` throws.
    public static func measure<Result, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> (Result, HeapDelta?) {
        guard let counter = installed.withLock({ $0 }) else { return (try body(), nil) }
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
