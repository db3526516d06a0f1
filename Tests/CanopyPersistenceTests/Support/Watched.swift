import Canopy
import CanopyTestSupport
import Testing

/// A value behind a lock that a test can wait on until it satisfies a condition, within a bound.
final class Watched<Value: Sendable>: Sendable {
    private struct Waiter {
        let isSatisfied: @Sendable (Value) -> Bool
        let resume: @Sendable () -> Void
    }

    private let state: LockedValue<(value: Value, waiters: [Waiter])>

    init(_ value: Value) {
        state = LockedValue((value, []))
    }

    var value: Value { state.withLock { $0.value } }

    /// Changes the value and wakes the waiters it now satisfies.
    func update<Result>(_ body: (inout Value) -> Result) -> Result {
        let (result, ready) = state.withLock { state in
            let result = body(&state.value)
            let value = state.value
            let ready = state.waiters.filter { $0.isSatisfied(value) }
            state.waiters.removeAll { $0.isSatisfied(value) }
            return (result, ready)
        }
        for waiter in ready {
            waiter.resume()
        }
        return result
    }

    /// Returns once `condition` holds; after the bound, records an issue naming `what` and returns.
    func wait(
        until what: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: @escaping @Sendable (Value) -> Bool
    ) async {
        let _: Void? = await boundedWait(for: what, sourceLocation: sourceLocation) { resume in
            let ready = state.withLock { state in
                if condition(state.value) { return true }
                state.waiters.append(Waiter(isSatisfied: condition, resume: { resume(()) }))
                return false
            }
            if ready { resume(()) }
        }
    }
}
