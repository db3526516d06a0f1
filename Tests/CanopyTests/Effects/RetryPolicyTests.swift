import CanopyTestSupport
import Foundation
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct RetryPolicyTests {
    @Test func defaultPolicyDoublesFromTwoSeconds() {
        let policy = Effect.RetryPolicy.exponential
        #expect((1...5).map { policy.delay(beforeRetry: $0) } == [2, 4, 8, 16, 32])
        #expect(Effect.RetryPolicy() == .exponential)
    }

    @Test func multiplierAndMaxDelayShapeTheDelays() {
        let policy = Effect.RetryPolicy(baseDelay: 0.5, multiplier: 3, maxDelay: 10)
        #expect((1...5).map { policy.delay(beforeRetry: $0) } == [0.5, 1.5, 4.5, 10, 10])
    }

    @Test func constantPolicyWaitsTheSameEveryTime() {
        let policy = Effect.RetryPolicy.constant(3)
        #expect((1...4).map { policy.delay(beforeRetry: $0) } == [3, 3, 3, 3])
    }

    @Test func hugeRetryNumbersStayFinite() {
        let uncapped = Effect.RetryPolicy.exponential.delay(beforeRetry: 100_000)
        #expect(uncapped.isFinite)
        #expect(Effect.RetryPolicy(maxDelay: 60).delay(beforeRetry: Int.max) == 60)
    }

    @Test func jitterShortensTheDelayWithinItsFraction() {
        let policy = Effect.RetryPolicy(baseDelay: 10, multiplier: 1, jitter: 0.3)
        for seed in UInt64(0)..<200 {
            let delay = policy.delay(beforeRetry: 1, seed: seed)
            #expect(delay <= 10 && delay >= 7)
        }
    }

    @Test func jitterSpreadsDifferentSeedsApart() {
        let policy = Effect.RetryPolicy(baseDelay: 10, multiplier: 1, jitter: 1)
        let delays = Set((UInt64(0)..<50).map { policy.delay(beforeRetry: 1, seed: $0) })
        #expect(delays.count > 40)
    }

    @Test func jitterIsDeterministicForOneSeed() {
        let policy = Effect.RetryPolicy(jitter: 0.5)
        #expect(policy.delay(beforeRetry: 2, seed: 99) == policy.delay(beforeRetry: 2, seed: 99))
    }

    @Test func differentRunsGetDifferentJitter() {
        let policy = Effect.RetryPolicy(baseDelay: 100, multiplier: 1, jitter: 1)
        let delays = Set(
            (0..<20).map { _ in
                var state = Effect.State.running(maxAttempts: 2, retryPolicy: policy)
                state.retryOrFailWith(TestError())
                return state.delay ?? -1
            }
        )
        #expect(delays.count > 15)
    }

    @Test func codableRoundTrip() throws {
        let policies: [Effect.RetryPolicy] = [.exponential, .constant(1), .init(maxDelay: 30, jitter: 0.1)]
        for policy in policies {
            let decoded = try JSONDecoder().decode(Effect.RetryPolicy.self, from: JSONEncoder().encode(policy))
            #expect(decoded == policy)
        }
    }

    @Test func decodingAnInvalidPolicyThrows() {
        let json = #"{"baseDelay":1,"multiplier":2,"jitter":4}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Effect.RetryPolicy.self, from: Data(json.utf8))
        }
    }

    @Test(.exitTest) func invalidJitterIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = Effect.RetryPolicy(jitter: 2)
        }
    }
}
