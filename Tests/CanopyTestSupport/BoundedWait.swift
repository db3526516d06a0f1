import Canopy
package import Dispatch
package import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The bounded waits every test target's helpers use (`CanopyTestSupport`, a target of the tests only).

/// How long a test helper waits for a signal before it records a failure and lets the test go on.
///
/// A safety net, never a way to synchronise: every wait in the tests ends on an explicit signal, or, for
/// what nothing signals, on a condition checked after each turn (``waitUntil(_:sourceLocation:_:)``);
/// the bound only turns a bug that would hang the run into a failure that names the waiting test.
///
/// 20 seconds, unless `CANOPY_WAIT_BOUND_SECONDS` names another positive number of seconds. CI raises
/// it to 60 in every test step: on a machine whose cores are busy with other work, the tests running
/// side by side have left signals later than 20 s without any test being wrong.
package let waitBoundSeconds: Int = {
    guard let text = ProcessInfo.processInfo.environment["CANOPY_WAIT_BOUND_SECONDS"] else { return 20 }
    guard let seconds = Int(text), seconds > 0 else {
        preconditionFailure("CANOPY_WAIT_BOUND_SECONDS must be a positive number of seconds, not \"\(text)\"")
    }
    return seconds
}()

private var waitBound: DispatchTime { .now() + .seconds(waitBoundSeconds) }

/// Hands a continuation its value once: from the signal or from the bound, whichever comes first.
private final class ResumeOnce<Value: Sendable>: Sendable {
    private let continuation: LockedValue<CheckedContinuation<Value?, Never>?>

    init(_ continuation: CheckedContinuation<Value?, Never>) {
        self.continuation = LockedValue(continuation)
    }

    func resume(_ value: Value?) {
        continuation.exchange(nil)?.resume(returning: value)
    }
}

/// Suspends until `start` passes a value to the function it receives, and returns that value; after
/// the bound, records an issue at `sourceLocation` that names `what`, and returns `nil`.
package func boundedWait<Value: Sendable>(
    for what: @autoclosure () -> String,
    sourceLocation: SourceLocation,
    _ start: (_ resume: @escaping @Sendable (Value) -> Void) -> Void
) async -> Value? {
    let value = await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
        let once = ResumeOnce(continuation)
        DispatchQueue.global().asyncAfter(deadline: waitBound) { once.resume(nil) }  // allowed: a bound
        start { once.resume($0) }
    }
    if value == nil {
        Issue.record("Timed out after \(waitBoundSeconds) s waiting for \(what())", sourceLocation: sourceLocation)
    }
    return value
}

/// Blocks until `semaphore` is signalled; after the bound, records an issue at `sourceLocation` that
/// names `what`, and returns `false`.
@discardableResult
package func boundedWait(
    on semaphore: DispatchSemaphore,
    for what: @autoclosure () -> String,
    sourceLocation: SourceLocation
) -> Bool {
    guard semaphore.wait(timeout: waitBound) == .timedOut else { return true }
    Issue.record("Timed out after \(waitBoundSeconds) s waiting for \(what())", sourceLocation: sourceLocation)
    return false
}

/// Yields until `condition` holds, and returns `true`; after the bound, records an issue at
/// `sourceLocation` that names `what`, and returns `false`.
///
/// For what nothing signals, such as the work pending on a ``ManualScheduler`` or a store's state read
/// through `await`: the condition is checked again after each turn. The bound is in time, not in turns,
/// so a machine whose cores are busy elsewhere does not end the wait before the work has had its turn.
@discardableResult
package func waitUntil(
    _ what: @autoclosure () -> String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () async -> Bool
) async -> Bool {
    let deadline = waitBound
    while !(await condition()) {
        guard DispatchTime.now() < deadline else {
            Issue.record("Timed out after \(waitBoundSeconds) s waiting for \(what())", sourceLocation: sourceLocation)
            return false
        }
        await Task.yield()
    }
    return true
}
