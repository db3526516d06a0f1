import Canopy
import CanopyTesting
import Testing

@Suite struct TestStoreTests {
    @Test func sendAssertsTheStateAfterTheAction() async {
        let store = TestStore(0, reducer: { (state: inout Int, action: Int) in state += action })
        await store.send(2) { $0 = 2 }
        await store.send(0)
        #expect(store.state == 2)
        await store.finish()
    }

    @Test func anActionAMiddlewareHoldsBackLeavesTheStateAsItWas() async {
        let store = TestStore<Int, Int> { scheduler in
            StateStore(
                0,
                scheduler: scheduler,
                middlewares: [.throttle({ $0 > 0 }, for: 1), .debounce({ $0 < 0 }, for: 1)],
                reducer: { state, action in state += action }
            )
        }
        await store.send(1) { $0 = 1 }
        await store.send(5)  // throttled: blocked, nothing changes
        await store.send(-1)  // debounced: held for a second
        await store.advance(by: 1)
        await store.receive(-1) { $0 = 0 }  // let go by the debounce
        await store.finish()
    }

    @Test func receiveWaitsOutTheDebounceOnTheTestClock() async {
        let store = TestStore.search()
        await store.send(.setQuery("milk")) {
            $0.query = "milk"
            $0.phase = .debouncing
        }
        await store.receive(.started("milk")) { $0.phase = .searching }
        #expect(store.now == Search.debounce)
        await store.receive(.finished("milk", ["milk", "oat milk"])) {
            $0.results = ["milk", "oat milk"]
            $0.phase = .done
        }
        #expect(store.now == Search.debounce + Search.latency)
        await store.finish()
    }

    @Test func advanceWakesAnEffectThatSleepsTwiceWithinTheInterval() async {
        let store = TestStore.search()
        await store.startSearch("milk")
        await store.advance(by: Search.debounce + Search.latency)
        // Both actions arrived during `advance`: receiving them needs no more time.
        await store.receive(.started("milk"), timeout: 0) { $0.phase = .searching }
        await store.receive(.finished("milk", ["milk", "oat milk"]), timeout: 0) {
            $0.results = ["milk", "oat milk"]
            $0.phase = .done
        }
        #expect(store.now == Search.debounce + Search.latency)
        await store.finish()
    }

    @Test func aNewQueryCancelsTheRunWaitingForItsDebounce() async {
        let store = TestStore.search()
        await store.startSearch("b")
        await store.advance(by: Search.debounce / 2)
        await store.send(.setQuery("bike")) { $0.query = "bike" }
        // The first query's debounce would end now: it was cancelled, so nothing arrives.
        await store.advance(by: Search.debounce / 2)
        await store.receive(.started("bike")) { $0.phase = .searching }
        await store.receive(.finished("bike", ["bike"])) {
            $0.results = ["bike"]
            $0.phase = .done
        }
        await store.finish()
    }

    @Test func aNewQueryCancelsTheRunningSearch() async {
        let store = TestStore.search()
        await store.startSearch("milk")
        await store.receive(.started("milk")) { $0.phase = .searching }
        await store.startSearch("book")
        // The cancelled search would finish now; its result never arrives.
        await store.advance(by: Search.latency)
        await store.receive(.started("book")) { $0.phase = .searching }
        await store.receive(.finished("book", ["book"])) {
            $0.results = ["book"]
            $0.phase = .done
        }
        await store.finish()
    }

    @Test func retriesFollowTheBackoffOnTheTestClock() async {
        let store = TestStore(observing: \Loader.snapshot) { scheduler in
            let store = StateStore(Loader(), scheduler: scheduler) { $0.reduce($1) }
            Loader.attach(to: store, scheduler: scheduler, failures: 2)
            return store
        }
        await store.send(.start) {
            $0.status = .inProgress
            $0.attempt = 0
        }
        await store.receive(.failed) { $0.attempt = 1 }
        #expect(store.now == 1)
        await store.receive(.failed) { $0.attempt = 2 }
        #expect(store.now == 1 + Loader.retryDelay + 1)
        await store.receive(.loaded("attempt 3")) {
            $0.status = .success
            $0.attempt = nil
            $0.value = "attempt 3"
        }
        #expect(store.now == 3 * 1 + 2 * Loader.retryDelay)
        await store.finish()
    }

    @Test func countedRunIDsLetATestAssertTheWholeEffectState() async {
        let store = TestStore { scheduler in
            withDependencies {
                $0.effectRunIDs = .counting()
            } operation: {
                let store = StateStore(Loader(), scheduler: scheduler) { $0.reduce($1) }
                Loader.attach(to: store, scheduler: scheduler, failures: 1)
                return store
            }
        }
        let started = withDependencies {
            $0.effectRunIDs = .counting()
        } operation: {
            Effect.State.running(maxAttempts: 3, retryPolicy: .constant(Loader.retryDelay))
        }
        await store.send(.start) { $0.load = started }
        await store.receive(.failed) { $0.load.retryOrFailWith(nil) }
        await store.receive(.loaded("attempt 2")) {
            $0.load.succeed()
            $0.value = "attempt 2"
        }
        await store.finish()
    }

    @Test func nonExhaustiveChecksOnlyWhatTheClosureSets() async {
        let store = TestStore.search()
        store.exhaustivity = .off
        await store.send(.setQuery("bi")) { $0.phase = .debouncing }
        await store.receive(.finished("bi", ["bike"])) { $0.results = ["bike"] }  // skips .started
        await store.finish()
    }

    @Test func receiveMatchesWithAPredicateOrAnExtractedPart() async {
        let store = TestStore.search()
        await store.startSearch("oat")
        await store.receive(
            where: { if case .started = $0 { true } else { false } },
            assert: { $0.phase = .searching }
        )
        await store.receive(["oat milk"], from: \.results) {
            $0.results = ["oat milk"]
            $0.phase = .done
        }
        await store.finish()
    }
}

extension SearchAction {
    /// The results of a `.finished` action.
    var results: [String]? {
        if case .finished(_, let results) = self { results } else { nil }
    }
}
