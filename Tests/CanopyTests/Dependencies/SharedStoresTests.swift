import Canopy
import Testing

@Suite(.timeLimit(.minutes(1))) struct SharedStoresTests {
    struct Screen: Sendable {
        @StoreOf(\.counter) var counter
    }

    @Test func storeOfReachesTheDefaultStoreAndMakesChildrenOfIt() async {
        // The only test that uses the default `counter` store.
        let child = StoreOf(\.counter).with("") { text, action in text = "child saw \(action)" }
        let state = await child.send(5)
        #expect(state == (5, "child saw 5"))
        #expect(await Screen().counter.state == 5)
        #expect(await SharedStores[\.counter].state == 5)
    }

    @Test func theAppsSetUpReplacesTheStoreForEveryReader() async {
        let configured = CounterStore(100) { state, action in state += action }
        SharedStores[\.setUpCounter] = configured
        await configured.send(1)
        #expect(await StoreOf(\.setUpCounter).wrappedValue.state == 101)
        #expect(await StoreOf[\.setUpCounter].state == 101)
    }

    @Test func aScopedStoreIsSeenInsideTheScopeOnly() async {
        let sample = CounterStore(42) { state, action in state += action }
        let screen = withSharedStores {
            $0.counter = sample
        } operation: {
            Screen()
        }
        await screen.counter.send(1)
        #expect(await sample.state == 43)
        let outside = await withSharedStores { _ in
        } operation: {
            await StoreOf(\.counter).wrappedValue.state
        }
        #expect(outside != 43)
    }

    @Test func dependencyAndStoreScopesNest() async {
        let sample = CounterStore(0) { state, action in state += action }
        await withDependencies {
            $0.greeting = "outer"
        } operation: {
            await withSharedStores {
                $0.counter = sample
            } operation: {
                #expect(Dependency[\.greeting] == "outer")
                #expect(await StoreOf(\.counter).wrappedValue.send(3) == 3)
            }
        }
        #expect(await sample.state == 3)
    }
}
