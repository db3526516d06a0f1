import Dispatch
import Testing

@testable import Canopy

/// Cancelling an effect reaches its running task, drops its pending work and its late actions, and
/// releasing a store cancels everything it started.
///
/// For that reason, and because Swift may release a local right after its last use, a test that checks
/// runs after its last use of a store it does not mean to release holds the store until then.
@Suite(.timeLimit(.minutes(1))) struct EffectCancellationTests {
    /// A store whose effect waits for cancellation and records its attempt in `probe`.
    private func makeWaitingStore(
        _ probe: CancellationProbe,
        scheduler: ManualScheduler = ManualScheduler()
    ) -> StateStore<Effect.State, EffectAction> {
        let store = makeEffectStore(scheduler: scheduler)
        let counter = StateRecorder<Int>()
        store.effect(on: makeEffectQueue()) { _, _ in
            counter.record(0)
            let run = counter.values.count
            return Effect(operation: { await probe.waitForCancellation(run: run) })
        }
        return store
    }

    @Test func cancelReachesTheRunningTask() async {
        let probe = CancellationProbe()
        let store = makeWaitingStore(probe)
        await store.send(.run)
        _ = await probe.events.waitFor(count: 1)
        await store.send(.cancel)
        #expect(probe.values == [.started(1), .cancelled(1)])
    }

    @Test(arguments: [EffectAction.succeed, .fail, .reset])
    func leavingInProgressCancelsTheRunningTask(action: EffectAction) async {
        let probe = CancellationProbe()
        let store = makeWaitingStore(probe)
        await store.send(.run)
        _ = await probe.events.waitFor(count: 1)
        await store.send(action)
        #expect(probe.values == [.started(1), .cancelled(1)])
    }

    @Test func restartCancelsTheRunningTaskAndStartsANewOne() async {
        let probe = CancellationProbe()
        let store = makeWaitingStore(probe)
        await store.send(.run)
        _ = await probe.events.waitFor(count: 1)
        await store.send(.restart)
        // The old run is cancelled while the restart is reduced, before the new run is even scheduled.
        #expect(await probe.events.waitFor(count: 3) == [.started(1), .cancelled(1), .started(2)])
        withExtendedLifetime(store) {}
    }

    @Test func retryCancelsTheRunningAttempt() async {
        let probe = CancellationProbe()
        let scheduler = ManualScheduler()
        let store = makeWaitingStore(probe, scheduler: scheduler)
        await store.send(.run(maxAttempts: 2, delay: 0))
        _ = await probe.events.waitFor(count: 1)
        await store.send(.retry)
        #expect(probe.values == [.started(1), .cancelled(1)])
        scheduler.advance(by: 2)
        #expect(await probe.events.waitFor(count: 3) == [.started(1), .cancelled(1), .started(2)])
        withExtendedLifetime(store) {}
    }

    @Test func releasingTheStoreCancelsTheRunningTask() async {
        let probe = CancellationProbe()
        var store: StateStore<Effect.State, EffectAction>? = makeWaitingStore(probe)
        await store?.send(.run)
        _ = await probe.events.waitFor(count: 1)
        let queue = store!.handle.queue
        let node = WeakRef(store!.handle.stateNode!.object)
        await settle(queue)  // the drain that reduced `.run` has let go of the node
        store = nil
        #expect(node.object == nil)
        #expect(probe.values == [.started(1), .cancelled(1)])
    }

    @Test func releasingAChildStoreCancelsItsEffects() async {
        let root = StateStore<Int, EffectAction>(0) { _, _ in }
        let probe = CancellationProbe()
        var child: StateStore<(Int, Effect.State), EffectAction>? = root.with(Effect.State(), reducer: reduceEffect)
        child?.effect(\.1, on: makeEffectQueue()) { _, _ in
            Effect(operation: { await probe.waitForCancellation() })
        }
        await child?.send(.run)
        _ = await probe.events.waitFor(count: 1)
        await settle(root.handle.queue)
        child = nil  // the child leaves its tree on the tree's queue, at once, which cancels its effects
        #expect(await probe.events.waitFor(count: 2) == [.started(0), .cancelled(0)])
        await root.send(.noop)  // the root carries on
    }

    @Test func aDelayedEffectOfAReleasedStoreNeverRuns() async {
        let scheduler = ManualScheduler()
        let runs = StateRecorder<Int>()
        var store: StateStore<Effect.State, EffectAction>? = makeEffectStore(scheduler: scheduler)
        store?.effect(on: makeEffectQueue()) { _, _ in Effect { runs.record(1) } }
        await store?.send(.run(maxAttempts: 1, delay: 5))
        #expect(scheduler.pendingCount == 1)
        await settle(store!.handle.queue)
        store = nil
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 10)
        #expect(runs.values.isEmpty)
    }

    @Test func aRunWaitingForItsEffectQueueNeverStartsOnceTheStoreIsReleased() async {
        let effects = makeEffectQueue()
        let runs = StateRecorder<Int>()
        var store: StateStore<Effect.State, EffectAction>? = makeEffectStore()
        store?.effect(on: effects) { _, _ in Effect { runs.record(1) } }
        // The effect queue is held back, so the run is queued on it but has not started.
        effects.suspend()
        await store?.send(.run)
        let node = WeakRef(store!.handle.stateNode!.object)
        await settle(store!.handle.queue)
        store = nil
        #expect(node.object == nil)
        effects.resume()
        drain(effects)
        #expect(runs.values.isEmpty)
    }

    @Test func cancellingBeforeTheDelayEndsDropsTheEffect() async {
        let scheduler = ManualScheduler()
        let store = makeEffectStore(scheduler: scheduler)
        let queue = makeEffectQueue()
        let runs = StateRecorder<Int>()
        store.effect(on: queue) { _, _ in Effect { runs.record(1) } }
        await store.send(.run(maxAttempts: 1, delay: 5))
        await store.send(.cancel)
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: 10)
        await settle(queue)
        #expect(runs.values.isEmpty)
        withExtendedLifetime(store) {}  // so that the cancel, not the release, is what drops the run
    }

    @Test func actionsOfACancelledRunAreDropped() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let dispatches = StateRecorder<Dispatch<EffectAction>>()
        store.effect(on: queue) { _, dispatch in
            dispatches.record(dispatch)
            return Effect {}
        }
        await store.send(.run)
        await store.send(.cancel)
        await store.send(.run)
        let stale = dispatches.values[0]
        stale(.succeed)
        #expect(await store.state.isInProgress)
        dispatches.values[1](.succeed)
        #expect(await store.state.isSuccess)
    }

    @Test func staleResultQueuedBeforeARestartIsReducedIsDropped() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let dispatches = StateRecorder<Dispatch<EffectAction>>()
        store.effect(on: queue) { _, dispatch in
            dispatches.record(dispatch)
            return Effect {}
        }
        await store.send(.run)
        let stale = dispatches.values[0]
        // Both actions join the inbox before either is reduced: the restart first, then the old attempt's
        // result. When the result was sent its attempt was still current; when it is reduced it is not.
        await withCheckedContinuation { continuation in
            store.handle.enqueue {
                store.dispatch(.restart)
                stale(.succeed)
                continuation.resume()
            }
        }
        let state = await store.state  // reads after both
        #expect(state.isInProgress)
        #expect(dispatches.values.count == 2)
    }

    @Test func actionsOfAFinishedAttemptAreDropped() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let dispatches = StateRecorder<Dispatch<EffectAction>>()
        store.effect(on: queue) { _, dispatch in
            dispatches.record(dispatch)
            return Effect {}
        }
        await store.send(.run(maxAttempts: 3, delay: 0))
        await store.send(.retry)
        dispatches.values[0](.succeed)  // attempt 0 is no longer current
        #expect(await store.state.currentAttempt == 1)
    }

    @Test func effectsNeverKeepTheStoreAlive() async {
        let probe = CancellationProbe()
        var store: StateStore<Effect.State, EffectAction>? = makeEffectStore()
        let dispatches = StateRecorder<Dispatch<EffectAction>>()
        store?.effect(on: makeEffectQueue()) { _, dispatch in
            dispatches.record(dispatch)
            return Effect(operation: {
                await probe.waitForCancellation()
                dispatch(.succeed)
            })
        }
        await store?.send(.run)
        _ = await probe.events.waitFor(count: 1)
        let node = WeakRef(store!.handle.stateNode!.object)
        await settle(store!.handle.queue)
        store = nil
        #expect(node.object == nil)
        dispatches.values[0](.succeed)  // dispatching to a released store does nothing
    }
}
