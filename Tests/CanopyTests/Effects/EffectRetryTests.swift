import Testing

@testable import Canopy

/// Retries wait as the retry policy says, measured on the injected clock.
@Suite(.timeLimit(.minutes(1))) struct EffectRetryTests {
    /// Runs an effect that always fails and retries, and returns the clock time of each attempt.
    private func attemptTimes(
        maxAttempts: Int,
        policy: Effect.RetryPolicy,
        advancing steps: [Double]
    ) async -> (times: [Double], state: Effect.State) {
        let scheduler = ManualScheduler()
        let store = makeEffectStore(scheduler: scheduler)
        let queue = makeEffectQueue()
        let times = StateRecorder<Double>()
        store.effect(on: queue) { _, dispatch in
            Effect {
                times.record(scheduler.now)
                dispatch(.retry)
            }
        }
        await store.send(.runWithPolicy(maxAttempts: maxAttempts, policy: policy))
        await settle(queue)  // attempt 0 has no delay
        for step in steps {
            _ = await store.state  // the failure of the last attempt is reduced, the next one scheduled
            scheduler.advance(by: step)
        }
        return (times.values, await store.state)
    }

    @Test func defaultPolicyRetriesAfterTwoFourAndEightSeconds() async {
        let (times, state) = await attemptTimes(
            maxAttempts: 4,
            policy: .exponential,
            advancing: [1.5, 0.5, 3.5, 0.5, 7.5, 0.5]
        )
        #expect(times == [0, 2, 6, 14])
        #expect(state.isFailed)
        #expect(state.error as? TestError == TestError())
    }

    @Test func customPolicyIsCappedAtItsMaximumDelay() async {
        let policy = Effect.RetryPolicy(baseDelay: 1, multiplier: 3, maxDelay: 5)
        let (times, state) = await attemptTimes(maxAttempts: 5, policy: policy, advancing: [1, 3, 5, 4.5, 0.5])
        #expect(times == [0, 1, 4, 9, 14])
        #expect(state.isFailed)
    }

    @Test func retryDoesNotRunBeforeItsDelay() async {
        let (times, state) = await attemptTimes(maxAttempts: 2, policy: .constant(10), advancing: [9.99])
        #expect(times == [0])
        #expect(state.currentAttempt == 1)
    }
}
