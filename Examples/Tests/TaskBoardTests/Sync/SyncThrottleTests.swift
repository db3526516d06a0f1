import Canopy
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct SyncThrottleTests {
    private static let start = AppAction.sync(.start(.push))

    @Test func aSecondRequestWithinTheIntervalIsBlockedAndOneAfterItPasses() async {
        let clock = ManualScheduler()
        let store = StateStore<SyncStoreState, AppAction>(
            ((AppState(today: TestBoard.day), TasksState()), SyncState()),
            scheduler: clock,
            middlewares: [SyncThrottle.middleware(interval: 1)]
        ) { state, action in
            SyncState.reducer(&state.1, action)
        }
        #expect(await store.outcome(of: Self.start).state?.1.run.isInProgress == true)
        #expect(await store.outcome(of: .sync(.cancel)).state?.1.run.isInProgress == false)

        guard case .blocked = await store.outcome(of: Self.start) else {
            Issue.record("a request at the same time passed")
            return
        }
        clock.advance(by: 0.9)
        guard case .blocked = await store.outcome(of: .sync(.start(.pull))) else {
            Issue.record("a pull 0.9 s later passed")
            return
        }
        #expect(await store.state.1.run.isInProgress == false, "no reducer ran for the blocked requests")

        clock.advance(by: 0.1)
        #expect(await store.outcome(of: Self.start).state?.1.run.isInProgress == true)
    }

    @Test func otherSyncActionsAreNotThrottled() {
        #expect(SyncThrottle.isRequest(.sync(.start(.pull))))
        #expect(!SyncThrottle.isRequest(.sync(.cancel)))
        #expect(!SyncThrottle.isRequest(.sync(.autoSyncTick)))
        #expect(!SyncThrottle.isRequest(.tasks(.add(title: "A"))))
    }

    @Test func aPushRightAfterACancelledOneIsRefusedWithTheReason() async {
        let test = TestBoard(saving: false, syncThrottle: 2)
        let (succeeded, captured) = await test.runScript("push --background\ncancel\npush\n")
        #expect(!succeeded)
        #expect(
            captured.errors
                == "error: test:3: a sync started less than 2s ago (syncs are at least 2s apart; try again in a moment)\n"
        )
    }
}
