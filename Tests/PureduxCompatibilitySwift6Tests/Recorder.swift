import Dispatch
import Foundation

/// Collects values from any thread; a test awaits a number of them.
///
/// The compatibility targets use only `import Canopy`, so they keep their own small recorder instead of
/// the `CanopyTests` support code.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Safety: `values` and `waiters` are read and written only while `lock` is held.
    private let lock = NSLock()
    private var values: [Value] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<[Value], Never>)] = []

    /// Everything recorded so far.
    var all: [Value] {
        lock.withLock { values }
    }

    func record(_ value: Value) {
        let ready: [(CheckedContinuation<[Value], Never>, [Value])] = lock.withLock {
            values.append(value)
            let due = waiters.filter { $0.count <= values.count }
            waiters.removeAll { $0.count <= values.count }
            return due.map { ($0.continuation, values) }
        }
        for (continuation, values) in ready {
            continuation.resume(returning: values)
        }
    }

    /// Suspends until at least `count` values were recorded; returns all of them.
    func waitFor(count: Int) async -> [Value] {
        await withCheckedContinuation { continuation in
            let ready: [Value]? = lock.withLock {
                if values.count >= count { return values }
                waiters.append((count, continuation))
                return nil
            }
            if let ready {
                continuation.resume(returning: ready)
            }
        }
    }
}

/// Whether the caller runs on the main queue, which on Linux is not always the main thread.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) ?? false
    }
}
