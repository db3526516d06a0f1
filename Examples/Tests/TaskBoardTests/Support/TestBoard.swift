import Canopy
import Foundation

@testable import TaskBoard

/// A board on a `ManualScheduler`, with a recording writer instead of the disk: the clock and the remote
/// are dependencies, overridden for the board's stores and effects only. For the tests of what the
/// program does around the store tree (scripts, Stats props, validation, diagnostics); the features'
/// effects are tested on `TestStore` (`boardTestStore`).
struct TestBoard {
    static let day = Day(year: 2025, month: 3, day: 14)!
    /// The wall clock at scheduler time zero.
    static let start = Date(timeIntervalSince1970: 1_741_946_400)

    let scheduler: ManualScheduler
    let board: Board
    /// Where the board's changes go; unused when the board was made with `saving: false`.
    let writer: RecordingWriter

    init(
        saving: Bool = true,
        writeFailures: Int = 0,
        syncThrottle: TimeInterval = 0.25,
        diagnostics: (any StoreDiagnostics)? = nil
    ) {
        let scheduler = ManualScheduler()
        let writer = RecordingWriter(failures: writeFailures)
        self.scheduler = scheduler
        self.writer = writer
        self.board = withDependencies {
            $0.scheduler = scheduler
            $0.remote = RemoteService(configuration: TestBoard.remote(), sleeper: Sleeper(scheduler: scheduler))
        } operation: {
            var environment = Environment(
                now: { TestBoard.start.addingTimeInterval(scheduler.now) },
                writer: saving ? writer : nil
            )
            environment.sync = TestBoard.sync
            // Shorter than a remote call (0.3 s), so a sync that ended never holds up the next one.
            environment.syncThrottle = syncThrottle
            environment.diagnostics = diagnostics
            return Board(today: TestBoard.day, saved: nil, environment: environment)
        }
    }

    /// Lets the Stats subscription deliver props for the current state: once the subscription has seen
    /// every state (reading the state waits for that), its one debounce timer is armed; this moves the
    /// clock past it.
    func settleStats() async {
        _ = await board.stats.state
        scheduler.advance(by: board.environment.statsDebounce)
    }

    static func remote(
        latency: Double = 0.3,
        failFirst: Int = 0,
        failureRate: Double = 0
    ) -> RemoteService.Configuration {
        var configuration = RemoteService.Configuration()
        configuration.latency = latency
        configuration.failFirst = failFirst
        configuration.failureRate = failureRate
        configuration.seed = 1
        return configuration
    }

    static let sync = SyncState.Settings(
        maxAttempts: 3,
        retryPolicy: .init(baseDelay: 1, multiplier: 2, maxDelay: 8),
        autoSyncInterval: 30
    )
}

extension TestBoard {
    /// Runs `script` on this board as `--script` would, with a captured console; lines are named `test:n`.
    func runScript(_ script: String) async -> (succeeded: Bool, captured: CapturedConsole) {
        let captured = CapturedConsole()
        let session = Session(board: board, console: captured.console, mode: .script) { TestBoard.day }
        let succeeded = await ScriptRunner.run(InputLines.lines(of: script), in: session, echo: false, name: "test")
        return (succeeded, captured)
    }
}
