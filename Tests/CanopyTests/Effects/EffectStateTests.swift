import CanopyTestSupport
import Foundation
import Testing

@testable import Canopy

private struct DescribedError: LocalizedError {
    var errorDescription: String? { "The disk is full" }
}

/// One state of each status, each reached through the public API.
private func sample(_ status: Effect.State.Status) -> Effect.State {
    var state = Effect.State()
    switch status {
    case .idle: break
    case .inProgress: state.run()
    case .success:
        state.run()
        state.succeed()
    case .failure: state.fail(TestError())
    case .cancelled:
        state.run()
        state.cancel()
    }
    return state
}

private let finishedStatuses: [Effect.State.Status] = [.success, .failure, .cancelled]
private let notInProgressStatuses: [Effect.State.Status] = [.idle] + finishedStatuses
private let allStatuses: [Effect.State.Status] = [.idle, .inProgress] + finishedStatuses

@Suite(.timeLimit(.minutes(1))) struct EffectStateTests {
    @Test func initAndIdleAreIdle() {
        #expect(Effect.State().isIdle)
        #expect(Effect.State.idle().status == .idle)
        #expect(Effect.State() == Effect.State.idle())
        #expect(Effect.State().currentAttempt == nil)
        #expect(Effect.State().delay == nil)
        #expect(Effect.State().error == nil)
    }

    @Test func runningStartsAtAttemptZeroWithItsDelay() {
        let state = Effect.State.running(maxAttempts: 3, delay: 1.5)
        #expect(state.isInProgress)
        #expect(state.currentAttempt == 0)
        #expect(state.delay == 1.5)
        #expect(Effect.State.running().delay == 0)
    }

    @Test func eachStatusHasExactlyOneQuery() {
        for status in allStatuses {
            let state = sample(status)
            #expect(state.status == status)
            let flags = [state.isIdle, state.isInProgress, state.isSuccess, state.isFailed, state.isCancelled]
            #expect(flags.filter { $0 }.count == 1)
            #expect(flags[status.rawValue])
        }
    }

    @Test func statusRawValuesFollowTheLifecycle() {
        #expect(
            [Effect.State.Status.idle, .inProgress, .success, .failure, .cancelled].map(\.rawValue) == [0, 1, 2, 3, 4]
        )
    }

    // MARK: The transition table, row by row

    @Test(arguments: notInProgressStatuses)
    func runWhenNotInProgressStartsANewAttemptZero(from status: Effect.State.Status) {
        let before = sample(status)
        var state = before
        state.run(maxAttempts: 2, delay: 3)
        #expect(state.isInProgress)
        #expect(state.currentAttempt == 0)
        #expect(state.delay == 3)
        #expect(state.runID != nil && state.runID != before.runID)
    }

    @Test func runWhileInProgressChangesNothing() {
        var state = Effect.State.running(maxAttempts: 3)
        state.retryOrFailWith(TestError())
        let before = state
        state.run(maxAttempts: 5, delay: 9)
        #expect(state == before)
        #expect(state.currentAttempt == 1)
    }

    @Test(arguments: allStatuses)
    func restartFromAnyStatusStartsANewAttemptZero(from status: Effect.State.Status) {
        let before = sample(status)
        var state = before
        state.restart(delay: 2)
        #expect(state.isInProgress)
        #expect(state.currentAttempt == 0)
        #expect(state.delay == 2)
        #expect(state != before)
        #expect(state.runID != before.runID)
    }

    @Test func restartTwiceGivesTwoDifferentIdentities() {
        var first = Effect.State.running()
        first.restart()
        var second = first
        second.restart()
        #expect(first != second)
    }

    @Test func retryWithAttemptsLeftMovesToTheNextAttempt() {
        let before = Effect.State.running(maxAttempts: 3)
        var state = before
        state.retryOrFailWith(TestError())
        #expect(state.isInProgress)
        #expect(state.currentAttempt == 1)
        #expect(state.delay == 2)
        #expect(state != before)
        #expect(state.runID == before.runID)
    }

    @Test func retryWithNoAttemptLeftFailsWithTheError() {
        var state = Effect.State.running(maxAttempts: 2)
        state.retryOrFailWith(TestError(code: 1))
        state.retryOrFailWith(TestError(code: 2))
        #expect(state.isFailed)
        #expect(state.error as? TestError == TestError(code: 2))
        #expect(state.currentAttempt == nil)
        #expect(state.delay == nil)
    }

    @Test func succeedInProgressSucceeds() {
        var state = Effect.State.running()
        state.succeed()
        #expect(state.isSuccess)
        #expect(state.currentAttempt == nil)
    }

    @Test func cancelInProgressCancels() {
        var state = Effect.State.running()
        state.cancel()
        #expect(state.isCancelled)
    }

    @Test(arguments: notInProgressStatuses)
    func succeedCancelAndRetryDoNothingWhenNotInProgress(from status: Effect.State.Status) {
        let before = sample(status)
        var state = before
        state.succeed()
        #expect(state == before)
        state.cancel()
        #expect(state == before)
        state.retryOrFailWith(TestError(code: 7))
        #expect(state == before)
        #expect(state.status == status)
    }

    @Test func lateSuccessCannotOverwriteCancelled() {
        var state = Effect.State.running()
        state.cancel()
        state.succeed()
        #expect(state.isCancelled)
    }

    @Test(arguments: allStatuses)
    func failFromAnyStatusFails(from status: Effect.State.Status) {
        var state = sample(status)
        state.fail(TestError(code: 3))
        #expect(state.isFailed)
        #expect(state.error as? TestError == TestError(code: 3))
    }

    @Test(arguments: allStatuses)
    func resetFromAnyStatusIsIdle(from status: Effect.State.Status) {
        var state = sample(status)
        state.reset()
        #expect(state.isIdle)
        #expect(state == .idle())
    }

    // MARK: Attempts and delays

    @Test func defaultRetryDelaysAreTwoFourEightSixteen() {
        var state = Effect.State.running(maxAttempts: 5)
        var delays: [TimeInterval] = []
        for _ in 1...4 {
            state.retryOrFailWith(TestError())
            delays.append(state.delay ?? -1)
        }
        #expect(delays == [2, 4, 8, 16])
        #expect(state.currentAttempt == 4)
    }

    @Test(arguments: [0, -3])
    func maxAttemptsBelowOneActsAsOne(maxAttempts: Int) {
        var state = Effect.State.running(maxAttempts: maxAttempts)
        state.retryOrFailWith(TestError())
        #expect(state.isFailed)
    }

    @Test func retryPolicyDecidesTheRetryDelays() {
        var state = Effect.State.running(maxAttempts: 4, retryPolicy: .init(baseDelay: 1, multiplier: 3, maxDelay: 5))
        var delays: [TimeInterval] = []
        for _ in 1...3 {
            state.retryOrFailWith(TestError())
            delays.append(state.delay ?? -1)
        }
        #expect(delays == [1, 3, 5])
        #expect(state.retryPolicy == .init(baseDelay: 1, multiplier: 3, maxDelay: 5))
    }

    @Test func retryIsAPureFunctionOfTheState() {
        let jittery = Effect.RetryPolicy(jitter: 1)
        let state = Effect.State.running(maxAttempts: 3, retryPolicy: jittery)
        var first = state
        var second = state
        first.retryOrFailWith(TestError())
        second.retryOrFailWith(TestError())
        #expect(first == second)
    }

    // MARK: Errors

    @Test func errorIsTheCallersOriginalValue() {
        var state = Effect.State.running()
        state.fail(TestError(code: 42))
        #expect(state.error as? TestError == TestError(code: 42))
    }

    @Test func failWithNilIsAnUnknownExecutionError() {
        var state = Effect.State()
        state.fail(nil)
        #expect(state.error?.localizedDescription == "Unknown effect execution error")
        #expect(state.error is Effect.ExecutionError)
    }

    @Test func retryOrFailWithNilFailsWithAnUnknownExecutionError() {
        var state = Effect.State.running()
        state.retryOrFailWith(nil)
        #expect(state.error?.localizedDescription == "Unknown effect execution error")
    }

    @Test func localizedErrorKeepsItsDescription() {
        var state = Effect.State()
        state.fail(DescribedError())
        #expect(state.error?.localizedDescription == "The disk is full")
        #expect(state.error is DescribedError)
    }

    @Test func failuresWithTheSameDescriptionAreEqual() {
        var first = Effect.State()
        var second = Effect.State()
        first.fail(DescribedError())
        second.fail(Effect.ExecutionError(description: "The disk is full"))
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
    }

    // MARK: Codable

    @Test(arguments: allStatuses)
    func codableRoundTripKeepsTheValue(status: Effect.State.Status) throws {
        let state = sample(status)
        let decoded = try JSONDecoder().decode(Effect.State.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded.status == status)
    }

    @Test func codableRoundTripKeepsAttemptDelayAndPolicy() throws {
        let policy = Effect.RetryPolicy(baseDelay: 0.5, multiplier: 3, maxDelay: 10, jitter: 0.25)
        var state = Effect.State.running(maxAttempts: 4, delay: 1, retryPolicy: policy)
        state.retryOrFailWith(TestError())
        let decoded = try JSONDecoder().decode(Effect.State.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded.currentAttempt == 1)
        #expect(decoded.delay == state.delay)
        #expect(decoded.retryPolicy == policy)
    }

    @Test func decodedFailureKeepsTheDescription() throws {
        var state = Effect.State.running()
        state.retryOrFailWith(DescribedError())
        let decoded = try JSONDecoder().decode(Effect.State.self, from: JSONEncoder().encode(state))
        #expect(decoded.error?.localizedDescription == "The disk is full")
        #expect((decoded.error as? Effect.ExecutionError)?.description == "The disk is full")
    }

    @Test func decodingAnInconsistentStateThrows() {
        let json = #"{"status":1,"runID":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","attempt":3,"maxAttempts":2,"delay":0}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Effect.State.self, from: Data(json.utf8))
        }
    }

    @Test func decodingAnUnknownStatusThrows() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Effect.State.self, from: Data(#"{"status":9}"#.utf8))
        }
    }

    @Test(.exitTest) func negativeDelayIsAProgrammingError() async {
        await #expect(processExitsWith: .failure) {
            _ = Effect.State.running(delay: -1)
        }
    }
}
