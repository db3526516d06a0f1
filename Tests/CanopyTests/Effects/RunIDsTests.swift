import Canopy
import Foundation
import Testing

/// Run identities a test can predict: `Effect.RunIDs.counting()` set where the store is made.
@Suite(.timeLimit(.minutes(1))) struct RunIDsTests {
    enum Action: Sendable {
        case run
        case restart
        case reset
    }

    static func reduce(_ state: inout Effect.State, _ action: Action) {
        switch action {
        case .run: state.run(maxAttempts: 3)
        case .restart: state.restart()
        case .reset: state.reset()
        }
    }

    /// The run identity as the encoded state shows it.
    static func runID(of state: Effect.State) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any]
        return object?["runID"] as? String
    }

    @Test func aStoreMadeInACountingScopeNumbersItsRunsFromOne() async throws {
        let store = withDependencies {
            $0.effectRunIDs = .counting()
        } operation: {
            StateStore<Effect.State, Action>(.idle(), reducer: Self.reduce)
        }
        let first = await store.send(.run)
        await store.send(.run)  // already running: no new run
        await store.send(.reset)
        let second = await store.send(.run)
        let third = await store.send(.restart)
        #expect(try Self.runID(of: first) == Effect.RunIDs.counted(1).uuidString)
        #expect(try Self.runID(of: second) == Effect.RunIDs.counted(2).uuidString)
        #expect(try Self.runID(of: third) == "00000000-0000-0000-0000-000000000003")
    }

    @Test func aSecondCounterGivesTheExpectedStatesTheSameIdentities() async {
        let store = withDependencies {
            $0.effectRunIDs = .counting()
        } operation: {
            StateStore<Effect.State, Action>(.idle(), reducer: Self.reduce)
        }
        let (running, restarted) = withDependencies {
            $0.effectRunIDs = .counting()
        } operation: {
            var state = Effect.State.running(maxAttempts: 3)
            let running = state
            state.restart()
            return (running, state)
        }
        #expect(await store.send(.run) == running)
        #expect(await store.send(.restart) == restarted)
    }

    @Test func outsideAScopeEachRunGetsARandomIdentity() throws {
        var state = Effect.State()
        state.run()
        let first = try Self.runID(of: state)
        state.restart()
        let second = try Self.runID(of: state)
        #expect(first != nil && second != nil && first != second)
        #expect(first != Effect.RunIDs.counted(1).uuidString)
    }

    @Test func countedNumbersFillTheLastEightBytes() {
        #expect(Effect.RunIDs.counted(0x0102_0304_0506_0708).uuidString == "00000000-0000-0000-0102-030405060708")
    }
}
