import Dispatch
import Synchronization
import Testing

/// How long a test helper waits for a signal before it records a failure and lets the test go on.
///
/// A safety net, never a way to synchronise: every wait ends on an explicit signal, and the bound only
/// turns a bug that would hang the run into a failure that names the waiting test.
let waitBoundSeconds = 20

/// Suspends until `start` calls the function it receives; after the bound, records an issue at
/// `sourceLocation` that names `what` and returns.
func boundedWait(
    for what: @autoclosure () -> String,
    sourceLocation: SourceLocation,
    _ start: (_ resume: @escaping @Sendable () -> Void) -> Void
) async {
    let signalled = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let pending = Mutex<CheckedContinuation<Bool, Never>?>(continuation)
        let once = { @Sendable (signalled: Bool) in
            pending.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(returning: signalled)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(waitBoundSeconds)) { once(false) }
        start { once(true) }
    }
    if !signalled {
        Issue.record("Timed out after \(waitBoundSeconds) s waiting for \(what())", sourceLocation: sourceLocation)
    }
}

/// Runs `operation`, which must end when its task is cancelled; after the bound, cancels it, records
/// an issue at `sourceLocation` that names `what`, and returns `nil`.
func bounded<Value: Sendable>(
    _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    let result = await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(for: .seconds(waitBoundSeconds))
            return nil
        }
        defer { group.cancelAll() }
        return await group.next() ?? nil
    }
    if result == nil {
        Issue.record("Timed out after \(waitBoundSeconds) s waiting for \(what())", sourceLocation: sourceLocation)
    }
    return result
}
