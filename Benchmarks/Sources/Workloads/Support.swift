public import Canopy
import Dispatch
import Synchronization

/// The action of every workload but W5: increment an `Int` in the state.
public struct Increment: Sendable {
    /// Creates the action.
    public init() {}
}

/// A count that one serial queue, or one thread, updates at a time.
final class Tally: @unchecked Sendable {
    // Safety: `value` is written only on the store's serial queue (or on the single thread that runs a
    // floor-sync workload), and the harness reads it only after synchronising with that queue (a
    // semaphore, `DispatchQueue.sync` or `await store.state`), which orders every write before the read.
    var value = 0
}

/// Records when the observer that a latency sample waits for was reached, and wakes the harness.
final class LatencyProbe: Sendable {
    private let arrival = Atomic<UInt64>(0)
    private let semaphore = DispatchSemaphore(value: 0)

    /// Called by the last observer: the time is taken before the harness is woken.
    func arrive() {
        arrival.store(now(), ordering: .releasing)
        semaphore.signal()
    }

    /// Blocks until ``arrive()`` was called and returns the time it was called.
    func waitForArrival() -> UInt64 {
        semaphore.wait()
        return arrival.load(ordering: .acquiring)
    }
}

extension StateStore {
    /// Blocks the calling thread until every action this thread dispatched before has been reduced, and
    /// returns the state then (a benchmark may block; `await state` is the non-blocking form).
    public func settledState() -> State {
        let result = Mutex<State?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let state = await self.state
            result.withLock { $0 = state }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}

/// One throughput measurement: how long `actions` took from the first dispatch until the last was
/// reduced, and the heap traffic meanwhile.
public struct Throughput: Sendable {
    /// Actions dispatched.
    public var actions: Int
    /// From the first dispatch until the last action was reduced.
    public var nanoseconds: UInt64
    /// The heap traffic meanwhile, in a counting pass with a ``HeapCounter`` installed.
    public var heap: HeapDelta?

    /// Actions per second.
    public var actionsPerSecond: Double { perSecond(actions, nanoseconds) }

    /// Allocations per action, when a ``HeapCounter`` is installed.
    public var allocationsPerAction: Double? {
        heap.map { Double($0.allocations) / Double(max(actions, 1)) }
    }
}

/// Times `body`, and counts its heap traffic in a counting pass (``AllocationCounter/countingPass(_:)``).
func measureThroughput<Failure: Error>(
    actions: Int,
    _ body: () throws(Failure) -> Void
) throws(Failure) -> Throughput {
    let start = now()
    let ((), heap) = try AllocationCounter.measure(body)
    return Throughput(actions: actions, nanoseconds: now() - start, heap: heap)
}
