import Testing

@testable import Canopy

/// Runs an effect's async body in a task of the test's own, as the runtime would.
private func asyncBody(of effect: Effect) -> (@Sendable () async -> Void)? {
    guard case .async(let body) = effect.operation else { return nil }
    return body
}

@Suite(.timeLimit(.minutes(1))) struct EffectTests {
    @Test func synchronousFormKeepsItsOperation() {
        let runs = StateRecorder<Int>()
        let effect = Effect { runs.record(1) }
        guard case .sync(let body) = effect.operation else {
            Issue.record("expected a synchronous operation")
            return
        }
        body()
        #expect(runs.values == [1])
    }

    @Test func asyncFormRunsItsOperation() async {
        let runs = StateRecorder<Int>()
        let body = asyncBody(of: Effect(operation: { runs.record(1) }))
        await body?()
        #expect(runs.values == [1])
    }

    @Test func trailingClosureWithAwaitPicksTheAsyncForm() async {
        let runs = StateRecorder<Int>()
        let effect = Effect {
            await Task.yield()
            runs.record(1)
        }
        await asyncBody(of: effect)?()
        #expect(runs.values == [1])
    }

    @Test func postponeHasNoOperation() {
        guard case .postpone = Effect.postpone.operation else {
            Issue.record("expected postpone")
            return
        }
    }

    @Test func throwingFormPassesTheErrorToItsHandler() async {
        let errors = StateRecorder<TestError?>()
        let body = asyncBody(
            of: Effect(operation: { throw TestError(code: 9) }, catch: { errors.record($0 as? TestError) })
        )
        await body?()
        #expect(errors.values == [TestError(code: 9)])
    }

    @Test func throwingFormDoesNotReportTheCancellationOfACancelledTask() async {
        let probe = CancellationProbe()
        let errors = StateRecorder<String>()
        let body = asyncBody(
            of: Effect(
                operation: {
                    await probe.waitForCancellation()
                    try Task.checkCancellation()
                },
                catch: { errors.record("\($0)") }
            )
        )
        let task = Task { await body?() }
        _ = await probe.events.waitFor(count: 1)
        task.cancel()
        await task.value
        #expect(probe.values == [.started(0), .cancelled(0)])
        #expect(errors.values.isEmpty)
    }

    @Test func throwingFormReportsOtherErrorsOfACancelledTask() async {
        let probe = CancellationProbe()
        let errors = StateRecorder<TestError?>()
        let body = asyncBody(
            of: Effect(
                operation: {
                    await probe.waitForCancellation()
                    throw TestError(code: 2)
                },
                catch: { errors.record($0 as? TestError) }
            )
        )
        let task = Task { await body?() }
        _ = await probe.events.waitFor(count: 1)
        task.cancel()
        await task.value
        #expect(errors.values == [TestError(code: 2)])
    }

    @Test func throwingFormReportsACancellationErrorOfATaskThatWasNotCancelled() async {
        let errors = StateRecorder<Bool>()
        let body = asyncBody(
            of: Effect(operation: { throw CancellationError() }, catch: { errors.record($0 is CancellationError) })
        )
        await body?()
        #expect(errors.values == [true])
    }

    @Test func throwingEffectErrorReachesTheUserThroughTheStore() async {
        let store = makeEffectStore()
        let errors = StateRecorder<TestError?>()
        store.effect(on: makeEffectQueue()) { _, dispatch in
            Effect {
                throw TestError(code: 5)
            } catch: { error in
                errors.record(error as? TestError)
                dispatch(.retry)
            }
        }
        let failed = StateRecorder<Bool>()
        let subscription = store.subscribe { if $0.isFailed { failed.record(true) } }
        await store.send(.run)
        #expect(await errors.waitFor(count: 1) == [TestError(code: 5)])
        _ = await failed.waitFor(count: 1)
        subscription.cancel()
        // A store's effects are cancelled when it is released, and Swift may release a local right after
        // its last use: the store is held until its run is seen.
        withExtendedLifetime(store) {}
    }
}
