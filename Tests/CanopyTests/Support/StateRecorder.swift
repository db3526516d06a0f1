import CanopyTestSupport
import Testing

@testable import Canopy

/// Collects values delivered from any thread and lets a test wait until a given number of them has
/// arrived: on that signal, with a bound only as a safety net (see ``waitBoundSeconds``).
final class StateRecorder<Value: Sendable>: Sendable {
    private struct Storage {
        var values: [Value] = []
        var waiters: [(count: Int, resume: @Sendable ([Value]) -> Void)] = []
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
            var ready: [(@Sendable ([Value]) -> Void, [Value])] = []
            storage.waiters.removeAll { waiter in
                guard values.count >= waiter.count else { return false }
                ready.append((waiter.resume, values))
                return true
            }
            return ready
        }
        for (resume, values) in ready {
            resume(values)
        }
    }

    /// Suspends until at least `count` values were recorded, and returns all of them.
    ///
    /// When they do not come within the wait bound, records an issue at the caller and returns the values
    /// recorded so far.
    func waitFor(count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [Value] {
        let values = await boundedWait(for: "\(count) recorded values", sourceLocation: sourceLocation) { resume in
            let values = storage.withLock { storage -> [Value]? in
                if storage.values.count >= count { return storage.values }
                storage.waiters.append((count, resume))
                return nil
            }
            if let values {
                resume(values)
            }
        }
        return values ?? self.values
    }
}
