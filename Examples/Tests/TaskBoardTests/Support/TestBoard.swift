import Canopy
import Foundation
import Synchronization
import Testing

@testable import TaskBoard

/// A board on a `TestScheduler`, with a recording writer instead of the disk: the clock and the remote
/// are dependencies, overridden for the board's stores and effects only.
struct TestBoard {
    static let day = Day(year: 2025, month: 3, day: 14)!
    /// The wall clock at scheduler time zero.
    static let start = Date(timeIntervalSince1970: 1_741_946_400)

    let scheduler: TestScheduler
    let board: Board
    let writer: RecordingWriter

    init(
        remote: RemoteService.Configuration = TestBoard.remote(),
        sync: SyncState.Settings = TestBoard.sync,
        failingWrites: Int = 0,
        saving: Bool = true,
        saved: TasksSnapshot? = nil,
        syncThrottle: TimeInterval = 0.25,
        diagnostics: (any StoreDiagnostics)? = nil
    ) {
        let scheduler = TestScheduler()
        let writer = RecordingWriter(failures: failingWrites)
        let remoteSleeper = Sleeper(scheduler: scheduler)
        self.scheduler = scheduler
        self.writer = writer
        self.board = withDependencies {
            $0.scheduler = scheduler
            $0.remote = RemoteService(configuration: remote, sleeper: remoteSleeper)
        } operation: {
            var environment = Environment(
                now: { TestBoard.start.addingTimeInterval(scheduler.now) },
                writeTasks: saving ? writer.write : nil
            )
            environment.sync = sync
            // Shorter than a remote call (0.3 s), so a sync that ended never holds up the next one.
            environment.syncThrottle = syncThrottle
            environment.diagnostics = diagnostics
            scheduler.track([environment.effectQueue, environment.sleeper.queue, remoteSleeper.queue])
            return Board(today: TestBoard.day, saved: saved, environment: environment)
        }
    }

    /// Writes pending changes now and waits until they are saved, so no save timer is left.
    func saveNow() async {
        await board.tasks.send(.tasks(.flush))
        _ = await firstState(of: board.tasks) { $0.1.isSaved }
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

/// Records what the save effect writes; fails the first `failures` writes.
final class RecordingWriter: Sendable {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "no space left on device" }
    }

    private let state: Mutex<(failuresLeft: Int, attempts: Int, writes: [TasksSnapshot])>

    init(failures: Int) {
        state = Mutex((failures, 0, []))
    }

    var writes: [TasksSnapshot] { state.withLock { $0.writes } }
    var attempts: Int { state.withLock { $0.attempts } }

    @Sendable func write(_ snapshot: TasksSnapshot) throws {
        let fail = state.withLock { state in
            state.attempts += 1
            guard state.failuresLeft > 0 else {
                state.writes.append(snapshot)
                return false
            }
            state.failuresLeft -= 1
            return true
        }
        if fail { throw DiskFull() }
    }
}

/// Waits for the first state of `store` (the current one included) that satisfies `condition`; after
/// the wait bound, records an issue at the caller and returns `nil`.
func firstState<State: Sendable>(
    of store: StateStore<State, AppAction>,
    sourceLocation: SourceLocation = #_sourceLocation,
    where condition: @escaping @Sendable (State) -> Bool
) async -> State? {
    let states = store.states()
    // `nil` when the bound passed; `.some(nil)` when the store went before such a state came.
    let found: State?? = await bounded("a state that satisfies the condition", sourceLocation: sourceLocation) {
        () -> State? in
        for await state in states where condition(state) {
            return state
        }
        return nil
    }
    return found ?? nil
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
