import Dispatch
import Foundation
import Testing

/// Collects values from any thread; a test awaits a number of them.
///
/// The compatibility targets use only `import Canopy`, so they keep their own small recorder instead of
/// the `CanopyTests` support code.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    // Safety: `values` and `waiters` are read and written only while `lock` is held.
    private let lock = NSLock()
    private var values: [Value] = []
    private var waiters: [(count: Int, resume: @Sendable ([Value]?) -> Void)] = []

    /// Everything recorded so far.
    var all: [Value] {
        lock.withLock { values }
    }

    func record(_ value: Value) {
        let ready: [(@Sendable ([Value]?) -> Void, [Value])] = lock.withLock {
            values.append(value)
            let due = waiters.filter { $0.count <= values.count }
            waiters.removeAll { $0.count <= values.count }
            return due.map { ($0.resume, values) }
        }
        for (resume, values) in ready {
            resume(values)
        }
    }

    /// Suspends until at least `count` values were recorded; returns all of them. After the wait bound
    /// (a safety net, not a synchronisation) it records an issue at the caller and returns what came.
    func waitFor(count: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> [Value] {
        let received = await withCheckedContinuation { (continuation: CheckedContinuation<[Value]?, Never>) in
            let pending = ResumeOnce(continuation)
            let bound = DispatchTime.now() + .seconds(waitBoundSeconds)
            DispatchQueue.global().asyncAfter(deadline: bound) { pending.resume(nil) }  // allowed: a bound
            let ready: [Value]? = lock.withLock {
                if values.count >= count { return values }
                waiters.append((count, pending.resume))
                return nil
            }
            if let ready {
                pending.resume(ready)
            }
        }
        guard let received else {
            Issue.record(
                "Timed out after \(waitBoundSeconds) s waiting for \(count) recorded values",
                sourceLocation: sourceLocation
            )
            return all
        }
        return received
    }
}

/// How long ``Recorder/waitFor(count:sourceLocation:)`` waits before it records a failure: 20 seconds,
/// unless `CANOPY_WAIT_BOUND_SECONDS` names another positive number of seconds. It is the bound the other
/// test targets use, which CI raises for the sanitizer builds, where everything runs several times
/// slower; these targets run in the same test process, so they get the same bound.
let waitBoundSeconds: Int = {
    guard let text = ProcessInfo.processInfo.environment["CANOPY_WAIT_BOUND_SECONDS"] else { return 20 }
    guard let seconds = Int(text), seconds > 0 else {
        preconditionFailure("CANOPY_WAIT_BOUND_SECONDS must be a positive number of seconds, not \"\(text)\"")
    }
    return seconds
}()

/// Resumes a continuation once, from whichever of a signal and a timer comes first.
private final class ResumeOnce<Value: Sendable>: @unchecked Sendable {
    // Safety: `continuation` is read and cleared only while `lock` is held.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value?, Never>?

    init(_ continuation: CheckedContinuation<Value?, Never>) {
        self.continuation = continuation
    }

    @Sendable func resume(_ value: Value?) {
        let pending = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        pending?.resume(returning: value)
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
