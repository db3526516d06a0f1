import Dispatch

@testable import Canopy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Actions that drive one `Effect.State` through every transition.
enum EffectAction: Sendable {
    case run(maxAttempts: Int = 1, delay: TimeInterval = 0)
    case runWithPolicy(maxAttempts: Int, policy: Effect.RetryPolicy)
    case restart(delay: TimeInterval = 0)
    case retry
    case succeed
    case fail
    case cancel
    case reset
    case noop

    static let run = EffectAction.run()
    static let restart = EffectAction.restart()
}

struct TestError: Error, Equatable {
    var code = 1
}

func reduceEffect(_ state: inout Effect.State, _ action: EffectAction) {
    switch action {
    case .run(let maxAttempts, let delay): state.run(maxAttempts: maxAttempts, delay: delay)
    case .runWithPolicy(let maxAttempts, let policy): state.run(maxAttempts: maxAttempts, retryPolicy: policy)
    case .restart(let delay): state.restart(delay: delay)
    case .retry: state.retryOrFailWith(TestError())
    case .succeed: state.succeed()
    case .fail: state.fail(TestError())
    case .cancel: state.cancel()
    case .reset: state.reset()
    case .noop: break
    }
}

/// A store whose whole state is one `Effect.State`, on a manual clock.
func makeEffectStore(
    _ initial: Effect.State = .idle(),
    scheduler: ManualScheduler = ManualScheduler()
) -> StateStore<Effect.State, EffectAction> {
    StateStore(initial, scheduler: scheduler, reducer: reduceEffect)
}

/// A private serial queue for effects, so tests do not depend on the main queue being serviced.
func makeEffectQueue() -> DispatchQueue {
    DispatchQueue(label: "canopy.tests.effects")
}
