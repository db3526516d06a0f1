import Canopy
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one W4 run left on the heap, per subscriber and per child store with one observer.
public struct MemoryResult: Sendable {
    /// Subscribers, and children, created.
    public var count: Int
    /// What subscribing `count` observers to one store left on the heap, or `nil` without the interposer.
    public var subscribers: HeapDelta?
    /// What creating `count` child stores, each with one observer, left on the heap.
    public var children: HeapDelta?
    /// What creating `count` child stores, each with one deduplicating subscription
    /// (`subscribe(removeStateDuplicates:)`, its token kept), left on the heap; Canopy only.
    public var deduplicatingChildren: HeapDelta?

    /// Heap bytes each subscriber keeps.
    public var bytesPerSubscriber: Double? { subscribers.map { Double($0.retainedBytes) / Double(count) } }
    /// Heap blocks each subscriber keeps.
    public var allocationsPerSubscriber: Double? {
        subscribers.map { Double($0.retainedAllocations) / Double(count) }
    }
    /// Heap bytes each child store with one observer keeps.
    public var bytesPerChild: Double? { children.map { Double($0.retainedBytes) / Double(count) } }
    /// Heap blocks each child store with one observer keeps.
    public var allocationsPerChild: Double? { children.map { Double($0.retainedAllocations) / Double(count) } }
    /// Heap bytes each child store with one deduplicating subscription keeps, token included.
    public var bytesPerDeduplicatingChild: Double? {
        deduplicatingChildren.map { Double($0.retainedBytes) / Double(count) }
    }
    /// Heap blocks each child store with one deduplicating subscription keeps, token included.
    public var allocationsPerDeduplicatingChild: Double? {
        deduplicatingChildren.map { Double($0.retainedAllocations) / Double(count) }
    }
}

/// W4, memory: the heap that subscribers and child stores keep while they live.
///
/// Each part counts what is still allocated once every subscription has been made and delivered its
/// first state, while the harness still holds the stores; then it dispatches one more action and checks
/// that everyone received it.
public enum W4Memory {
    /// The workload's short name.
    public static let name = "W4"
    /// Subscribers, and children, created (DESIGN: 10,000 of each).
    public static let defaultCount = 10_000

    /// Runs both parts once and checks that every observer received its states.
    ///
    /// - Parameters:
    ///   - system: The implementation to run.
    ///   - count: Subscribers, and children, to create.
    /// - Returns: What each subscriber and each child kept on the heap, if a ``HeapCounter`` is installed.
    /// - Throws: ``CheckFailure`` when the result does not match what the actions imply.
    public static func run(_ system: System, count: Int = defaultCount) throws(CheckFailure) -> MemoryResult {
        // Each part is measured after the previous one's stores are gone: a tree is freed on its queue's
        // thread, and frees from it landing in the next part's region would be subtracted from it.
        let subscriberHeap: HeapDelta? = try afterTeardown { signal throws(CheckFailure) -> HeapDelta? in
            try subscribers(system, count: count, signal: signal)
        }
        let childHeap: HeapDelta? = try afterTeardown { signal throws(CheckFailure) -> HeapDelta? in
            try children(system, count: count, signal: signal)
        }
        var deduplicatingHeap: HeapDelta?
        if system == .canopy {
            deduplicatingHeap = try afterTeardown { signal throws(CheckFailure) -> HeapDelta? in
                try children(.canopy, count: count, signal: signal, deduplicating: true)
            }
        }
        return MemoryResult(
            count: count,
            subscribers: subscriberHeap,
            children: childHeap,
            deduplicatingChildren: deduplicatingHeap
        )
    }

    /// Runs `part` with a signal that its stores' reducers capture, then waits until they are all freed.
    private static func afterTeardown<Result>(
        _ part: (ReleaseSignal) throws(CheckFailure) -> Result
    ) throws(CheckFailure) -> Result {
        let released = DispatchSemaphore(value: 0)
        let result = try part(ReleaseSignal(released))
        released.wait()
        // The signal goes when a store releases its reducer; the rest of its teardown finishes on the
        // same thread right after.
        usleep(5_000)
        return result
    }

    private static func subscribers(
        _ system: System,
        count: Int,
        signal: ReleaseSignal
    ) throws(CheckFailure) -> HeapDelta? {
        let tally = Deliveries()
        let heap: HeapDelta?
        let final: Int
        switch system {
        case .floorSync:
            var store = FloorStore<Int, Increment>(0) { state, _ in
                signal.keep()
                state += 1
            }
            (_, heap) = AllocationCounter.measure {
                for index in 0..<count {
                    store.subscribe { _ in tally.record(index) }
                }
            }
            store.dispatch(Increment())
            final = store.state
        case .floorQueue:
            let store = FloorQueueStore<Int, Increment>(0) { state, _ in
                signal.keep()
                state += 1
            }
            (_, heap) = AllocationCounter.measure {
                for index in 0..<count {
                    store.subscribe { _ in tally.record(index) }
                }
                _ = store.settledState()
            }
            store.dispatch(Increment())
            final = store.settledState()
        case .canopy:
            let store = StateStore<Int, Increment>(0) { state, _ in
                signal.keep()
                state += 1
            }
            _ = store.settledState()
            (_, heap) = AllocationCounter.measure {
                for index in 0..<count {
                    store.subscribe(
                        observer: Observer { _ in
                            tally.record(index)
                            return .active
                        }
                    )
                }
                settleAndRelease(store)
            }
            store.dispatch(Increment())
            final = store.settledState()
        }
        try check(final == 1, name, system, "state \(final), expected 1")
        try tally.check(observers: count, statesEach: 2, name, system)
        return heap
    }

    /// Child stores with one observer each; for Canopy with `deduplicating`, one
    /// `subscribe(removeStateDuplicates:)` subscription each instead, whose token the harness keeps.
    private static func children(
        _ system: System,
        count: Int,
        signal: ReleaseSignal,
        deduplicating: Bool = false
    ) throws(CheckFailure) -> HeapDelta? {
        let tally = Deliveries()
        let heap: HeapDelta?
        var locals: [Int] = []
        switch system {
        case .floorSync:
            var tree = FloorTree(retaining: signal)
            (_, heap) = AllocationCounter.measure {
                for index in 0..<count {
                    let child = tree.addChild()
                    tree.subscribe(child) { _ in tally.record(index) }
                }
            }
            tree.dispatch(toChild: 0)
            locals = tree.children.map(\.local)
        case .floorQueue:
            let tree = FloorQueueTree(retaining: signal)
            (_, heap) = AllocationCounter.measure {
                for index in 0..<count {
                    tree.addChild(observers: [FloorObserver { _ in tally.record(index) }])
                }
                _ = tree.settledState()
            }
            tree.dispatch(toChild: 0)
            locals = tree.settledState().locals
        case .canopy:
            let root = StateStore<Int, Increment>(0) { state, _ in
                signal.keep()
                state += 1
            }
            _ = root.settledState()
            // The harness's own arrays (of handles, and of tokens) are allocated before the measured region.
            var stores: [StateStore<(Int, Int), Increment>] = []
            stores.reserveCapacity(count)
            var subscriptions: [Subscription] = []
            subscriptions.reserveCapacity(deduplicating ? count : 0)
            (_, heap) = AllocationCounter.measure {
                for index in 0..<count {
                    let store = root.with(0) { local, _ in local += 1 }
                    if deduplicating {
                        // On the root's count, which changes for every child when a child's action reaches
                        // the root.
                        subscriptions.append(
                            store.subscribe(removeStateDuplicates: .keyPath(\.0)) { _ in tally.record(index) }
                        )
                    } else {
                        store.subscribe(
                            observer: Observer { _ in
                                tally.record(index)
                                return .active
                            }
                        )
                    }
                    stores.append(store)
                }
                settleAndRelease(root)
            }
            stores[0].dispatch(Increment())
            locals = stores.map { $0.settledState().1 }
            withExtendedLifetime(subscriptions) {}
        }
        let expectedLocals = [1] + Array(repeating: 0, count: count - 1)
        try check(locals == expectedLocals, name, system, "child states are not one 1 followed by 0s")
        try tally.check(observers: count, statesEach: 2, name, system)
        return heap
    }
}

/// Returns once everything enqueued on `store` before has run and been released.
///
/// The reply to one `settledState()` can wake the harness while the drain that carried it is still
/// finishing its batch, before it has released the batch's work items (the subscribe calls); a heap
/// reading taken then counts them. A second round trip goes into a later batch, after the first is gone.
private func settleAndRelease<State, Action>(_ store: StateStore<State, Action>) {
    _ = store.settledState()
    _ = store.settledState()
}

/// Counts the states W4's observers receive; each observer adds its own index, so the sum shows that
/// every one of them was called.
final class Deliveries: @unchecked Sendable {
    // Safety: written only on the store's serial queue (or the one thread of a floor-sync run) and read by
    // the harness after synchronising with that queue, which orders every write before the read.
    private var count = 0
    private var indexSum = 0

    func record(_ index: Int) {
        count += 1
        indexSum &+= index
    }

    func check(observers: Int, statesEach: Int, _ name: String, _ system: System) throws(CheckFailure) {
        let expectedSum = statesEach * observers * (observers - 1) / 2
        try Workloads.check(
            count == statesEach * observers && indexSum == expectedSum,
            name,
            system,
            "observers got \(count) states (index sum \(indexSum)), expected \(statesEach * observers) (\(expectedSum))"
        )
    }
}

/// Signals a semaphore when released; W4's stores capture it to tell when they are gone.
final class ReleaseSignal: Sendable {
    private let semaphore: DispatchSemaphore

    init(_ semaphore: DispatchSemaphore) {
        self.semaphore = semaphore
    }

    deinit {
        semaphore.signal()
    }

    /// Does nothing; a closure that calls it keeps the signal alive.
    func keep() {}
}
