@testable import Canopy

/// Collects values delivered from any thread and lets a test wait, without timeouts, until a given
/// number of them has arrived.
final class StateRecorder<Value: Sendable>: Sendable {
    private struct Storage {
        var values: [Value] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<[Value], Never>)] = []
    }

    private let storage = LockedValue(Storage())

    init() {}

    var values: [Value] {
        storage.withLock { $0.values }
    }

    func record(_ value: Value) {
        let ready = storage.withLock { storage in
            storage.values.append(value)
            let values = storage.values
            var ready: [(CheckedContinuation<[Value], Never>, [Value])] = []
            storage.waiters.removeAll { waiter in
                guard values.count >= waiter.count else { return false }
                ready.append((waiter.continuation, values))
                return true
            }
            return ready
        }
        for (continuation, values) in ready {
            continuation.resume(returning: values)
        }
    }

    /// Suspends until at least `count` values were recorded, and returns all of them.
    func waitFor(count: Int) async -> [Value] {
        await withCheckedContinuation { continuation in
            let values = storage.withLock { storage -> [Value]? in
                if storage.values.count >= count { return storage.values }
                storage.waiters.append((count, continuation))
                return nil
            }
            if let values {
                continuation.resume(returning: values)
            }
        }
    }
}
