import Dispatch
import Foundation
import Testing

@testable import Canopy

/// The rules that decide when each effect operator calls its factory and runs the effect.
///
/// A store's effects are cancelled when it is released, and Swift may release a local right after its
/// last use, so a test that checks runs after its last use of the store holds it until then.
@Suite(.timeLimit(.minutes(1))) struct EffectOperatorTests {
    // MARK: effect(_:on:create:) and effect(on:create:)

    @Test func firesOncePerAttempt() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<Int?>()
        let runs = StateRecorder<Int?>()
        store.effect(on: queue) { state, _ in
            factoryCalls.record(state.currentAttempt)
            return Effect { runs.record(state.currentAttempt) }
        }
        await store.send(.run)
        await store.send(.noop)
        await store.send(.noop)
        await settle(queue)
        #expect(factoryCalls.values == [0])
        #expect(runs.values == [0])
        withExtendedLifetime(store) {}
    }

    @Test func runWhileRunningDoesNotFireAgain() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<Int?>()
        store.effect(on: queue) { state, _ in
            factoryCalls.record(state.currentAttempt)
            return Effect {}
        }
        await store.send(.run)
        await store.send(.run)
        await store.send(.run(maxAttempts: 3, delay: 0))
        #expect(factoryCalls.values.count == 1)
    }

    @Test func restartFiresAgain() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let runIDs = StateRecorder<UUID?>()
        store.effect(on: queue) { state, _ in
            runIDs.record(state.runID)
            return Effect {}
        }
        await store.send(.run)
        await store.send(.restart)
        await store.send(.restart)
        #expect(Set(runIDs.values).count == 3)
    }

    @Test func retryFiresAgainForTheNextAttempt() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<Int?>()
        store.effect(on: queue) { state, _ in
            factoryCalls.record(state.currentAttempt)
            return Effect {}
        }
        await store.send(.run(maxAttempts: 3, delay: 0))
        await store.send(.retry)
        await store.send(.retry)
        await store.send(.retry)  // out of attempts: fails, fires nothing
        #expect(factoryCalls.values == [0, 1, 2])
        #expect(await store.state.isFailed)
    }

    @Test(arguments: [EffectAction.noop, .succeed, .fail, .cancel, .reset, .retry])
    func idleAndFinishedStatesStartNothing(action: EffectAction) async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<Int?>()
        store.effect(on: queue) { state, _ in
            factoryCalls.record(state.currentAttempt)
            return Effect {}
        }
        await store.send(action)
        await store.send(.noop)
        #expect(factoryCalls.values.isEmpty)
    }

    @Test(arguments: [EffectAction.succeed, .fail, .cancel, .reset])
    func leavingInProgressStartsNothingNew(action: EffectAction) async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<Int?>()
        store.effect(on: queue) { state, _ in
            factoryCalls.record(state.currentAttempt)
            return Effect {}
        }
        await store.send(.run)
        await store.send(action)
        await store.send(.noop)
        #expect(factoryCalls.values == [0])
    }

    @Test func anAlreadyRunningStateFiresWhenTheEffectIsAdded() async {
        let store = makeEffectStore(.running())
        let queue = makeEffectQueue()
        let runs = StateRecorder<Int>()
        store.effect(on: queue) { _, _ in Effect { runs.record(1) } }
        _ = await runs.waitFor(count: 1)
        await store.send(.noop)
        await settle(queue)
        #expect(runs.values == [1])
        withExtendedLifetime(store) {}
    }

    @Test func effectWaitsForTheDelayOnTheInjectedClock() async {
        let scheduler = ManualScheduler()
        let store = makeEffectStore(scheduler: scheduler)
        let queue = makeEffectQueue()
        let runs = StateRecorder<Double>()
        store.effect(on: queue) { _, _ in Effect { runs.record(scheduler.now) } }
        await store.send(.run(maxAttempts: 1, delay: 5))
        scheduler.advance(by: 4.9)
        #expect(runs.values.isEmpty)
        scheduler.advance(by: 0.1)
        #expect(runs.values == [5])
        withExtendedLifetime(store) {}
    }

    @Test func factoryRunsOnTheStoreQueueAndEffectOnItsQueue() async {
        let store = makeEffectStore()
        let effectQueue = makeEffectQueue()
        let key = DispatchSpecificKey<String>()
        effectQueue.setSpecific(key: key, value: "effect")
        let storeQueue = store.handle.queue
        storeQueue.setSpecific(key: key, value: "store")
        let places = StateRecorder<String>()
        store.effect(on: effectQueue) { _, _ in
            places.record("factory on \(DispatchQueue.getSpecific(key: key) ?? "?")")
            return Effect { places.record("effect on \(DispatchQueue.getSpecific(key: key) ?? "?")") }
        }
        store.dispatch(.run)
        #expect(await places.waitFor(count: 2) == ["factory on store", "effect on effect"])
        withExtendedLifetime(store) {}
    }

    @Test func keyPathFormWatchesPartOfTheState() async {
        struct Screen: Sendable {
            var title = "Inbox"
            var load = Effect.State()
        }
        let store = StateStore<Screen, EffectAction>(Screen()) { screen, action in reduceEffect(&screen.load, action) }
        let queue = makeEffectQueue()
        let seen = StateRecorder<String>()
        store.effect(\.load, on: queue) { screen, _ in
            seen.record(screen.title)
            return Effect {}
        }
        await store.send(.run)
        #expect(seen.values == ["Inbox"])
    }

    @Test func effectDispatchReachesTheReducer() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let states = StateRecorder<Effect.State.Status>()
        let subscription = store.subscribe { states.record($0.status) }
        store.effect(on: queue) { _, dispatch in Effect { dispatch(.succeed) } }
        store.dispatch(.run)
        #expect(await states.waitFor(count: 3) == [.idle, .inProgress, .success])
        subscription.cancel()
        withExtendedLifetime(store) {}
    }

    @Test func anyStoreHasTheSameOperators() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let handle = store.eraseToAnyStore()
        let runs = StateRecorder<Int>()
        handle.effect(on: queue) { state, dispatch in
            Effect {
                runs.record(state.currentAttempt ?? -1)
                dispatch(.succeed)
            }
        }
        let done = StateRecorder<Bool>()
        let subscription = handle.subscribe { if $0.isSuccess { done.record(true) } }
        handle.dispatch(.run)
        #expect(await done.waitFor(count: 1) == [true])
        #expect(await store.state.isSuccess)
        #expect(runs.values == [0])
        subscription.cancel()
    }

    @Test func effectOnAWeakHandleRunsWhileTheStoreLives() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let runs = StateRecorder<Int>()
        store.weakStore().effect(on: queue) { state, dispatch in
            Effect {
                runs.record(state.currentAttempt ?? -1)
                dispatch(.succeed)
            }
        }
        let done = StateRecorder<Bool>()
        let subscription = store.subscribe { if $0.isSuccess { done.record(true) } }
        store.dispatch(.run)
        #expect(await done.waitFor(count: 1) == [true])
        #expect(await store.state.isSuccess)
        #expect(runs.values == [0])
        subscription.cancel()
    }

    @Test func effectAddedThroughATemporaryViewLivesWithTheStoreAndReachesIt() async {
        struct Screen: Sendable {
            var title = "Inbox"
            var load = Effect.State()
        }
        enum ScreenAction: Sendable {
            case load(EffectAction)
        }
        let store = StateStore<Screen, ScreenAction>(Screen()) { screen, action in
            switch action {
            case .load(let action): reduceEffect(&screen.load, action)
            }
        }
        let queue = makeEffectQueue()
        store.map(state: \.load).map(actions: ScreenAction.load).effect(on: queue) { _, dispatch in
            Effect { dispatch(.succeed) }
        }
        await store.send(.load(.run))
        await settle(queue)  // the effect ran and sent its result
        #expect(await store.state.load.isSuccess)
    }

    @Test func childEffectResultsGoThroughTheChildReducer() async {
        let root = StateStore<[String], EffectAction>([]) { log, action in log.append("root \(action)") }
        let child = root.with(Effect.State(), reducer: reduceEffect)
        let queue = makeEffectQueue()
        child.effect(\.1, on: queue) { _, dispatch in Effect { dispatch(.succeed) } }
        let done = StateRecorder<[String]>()
        let subscription = child.subscribe { state in if state.1.isSuccess { done.record(state.0) } }
        child.dispatch(.run)
        let log = await done.waitFor(count: 1)
        #expect(log.first?.last == "root succeed")
        subscription.cancel()
        withExtendedLifetime(child) {}
    }

    // MARK: toggle

    @Test func toggleFiresOnSubscriptionWhenTrue() async {
        let store = StateStore<Bool, Bool>(true) { state, action in state = action }
        let queue = makeEffectQueue()
        let runs = StateRecorder<Int>()
        store.effect(toggle: \.self, on: queue) { _, _ in Effect { runs.record(1) } }
        #expect(await runs.waitFor(count: 1) == [1])
        await store.send(true)  // still true: no change, no new run
        await settle(queue)
        #expect(runs.values == [1])
        withExtendedLifetime(store) {}
    }

    @Test func toggleFiresOnEachFalseToTrueChangeOnly() async {
        let store = StateStore<Bool, Bool>(false) { state, action in state = action }
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<Bool>()
        store.effect(toggle: \.self, on: queue) { state, _ in
            factoryCalls.record(state)
            return Effect {}
        }
        for value in [false, true, true, false, false, true] {
            await store.send(value)
        }
        #expect(factoryCalls.values == [true, true])
    }

    @Test func toggleTrueToFalseCancelsTheRun() async {
        let store = StateStore<Bool, Bool>(false) { state, action in state = action }
        let queue = makeEffectQueue()
        let probe = CancellationProbe()
        store.effectToggle(on: queue) { _, _ in
            Effect(operation: { await probe.waitForCancellation() })
        }
        await store.send(true)
        _ = await probe.events.waitFor(count: 1)
        await store.send(false)
        #expect(probe.values == [.started(0), .cancelled(0)])
    }

    // MARK: onChange

    @Test func onChangeSkipsTheInitialValueAndFiresOnEachChange() async {
        let store = StateStore<String, String>("a") { state, action in state = action }
        let queue = makeEffectQueue()
        let factoryCalls = StateRecorder<String>()
        store.effect(onChange: \.self, on: queue) { state, _ in
            factoryCalls.record(state)
            return Effect {}
        }
        for value in ["a", "b", "b", "c", "a"] {
            await store.send(value)
        }
        #expect(factoryCalls.values == ["b", "c", "a"])
    }

    @Test func onChangeCancelsThePreviousRun() async {
        let store = StateStore<Int, Int>(0) { state, action in state = action }
        let queue = makeEffectQueue()
        let probe = CancellationProbe()
        store.effectOnChange(on: queue) { value, _ in
            Effect(operation: { await probe.waitForCancellation(run: value) })
        }
        await store.send(1)
        _ = await probe.events.waitFor(count: 1)
        await store.send(2)
        _ = await probe.events.waitFor(count: 3)
        #expect(probe.values == [.started(1), .cancelled(1), .started(2)])
        withExtendedLifetime(store) {}
    }

    // MARK: collection

    @Test func collectionRunsElementsIndependently() async {
        let first = Effect.State.running()
        let second = Effect.State.running()
        let store = StateStore<[Effect.State], [Effect.State]>([first]) { state, action in state = action }
        let queue = makeEffectQueue()
        let probe = CancellationProbe()
        let names = [first: 1, second: 2]
        store.effect(collection: \.self, on: queue) { _, element, _ in
            let name = names[element] ?? 0
            return Effect(operation: { await probe.waitForCancellation(run: name) })
        }
        _ = await probe.events.waitFor(count: 1)
        await store.send([first, second])
        _ = await probe.events.waitFor(count: 2)
        var finished = first
        finished.succeed()
        await store.send([finished, second])  // only the first is cancelled
        #expect(probe.values == [.started(1), .started(2), .cancelled(1)])
        await store.send([])  // the second leaves the collection
        #expect(probe.values == [.started(1), .started(2), .cancelled(1), .cancelled(2)])
    }

    @Test func collectionStartsARetriedElementAgain() async {
        let store = StateStore<[Effect.State], EffectAction>([.running(maxAttempts: 2), .running()]) { state, action in
            reduceEffect(&state[0], action)
        }
        let queue = makeEffectQueue()
        let attempts = StateRecorder<Int?>()
        store.effectCollection(on: queue) { _, element, _ in
            attempts.record(element.currentAttempt)
            return Effect {}
        }
        await store.send(.noop)
        await store.send(.retry)
        #expect(attempts.values == [0, 0, 1])
    }

    // MARK: postpone

    @Test func postponeAsksAgainOnLaterStatesUntilAnEffectIsGiven() async {
        struct Sync: Sendable {
            var job = Effect.State()
            var isOnline = false
            var ticks = 0
        }
        enum SyncAction: Sendable {
            case start, online, tick
        }
        let store = StateStore<Sync, SyncAction>(Sync()) { state, action in
            switch action {
            case .start: state.job.run()
            case .online: state.isOnline = true
            case .tick: state.ticks += 1
            }
        }
        let queue = makeEffectQueue()
        let asked = StateRecorder<Int>()
        let runs = StateRecorder<Int>()
        store.effect(\.job, on: queue) { state, _ in
            asked.record(state.ticks)
            guard state.isOnline else { return .postpone }
            return Effect { runs.record(state.ticks) }
        }
        await store.send(.tick)  // idle: not asked
        await store.send(.start)
        await store.send(.tick)
        await store.send(.online)
        await store.send(.tick)  // already running: not asked
        await settle(queue)
        #expect(asked.values == [1, 2, 2])
        #expect(runs.values == [2])
        withExtendedLifetime(store) {}
    }

    @Test func postponedEffectIsForgottenWhenTheStateLeavesInProgress() async {
        let store = makeEffectStore()
        let queue = makeEffectQueue()
        let asked = StateRecorder<Int?>()
        store.effect(on: queue) { state, _ in
            asked.record(state.currentAttempt)
            return .postpone
        }
        await store.send(.run)
        await store.send(.noop)
        await store.send(.cancel)
        await store.send(.noop)
        #expect(asked.values == [0, 0])
    }
}
