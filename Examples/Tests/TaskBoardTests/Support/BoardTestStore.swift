import Canopy
import CanopyTesting
import Foundation

@testable import TaskBoard

/// A `TestStore` over the board as the app builds it, on the test store's clock: the scheduler and
/// the remote are dependencies overridden for this board only, and the wall clock is the test clock
/// counted from ``TestBoard/start``.
///
/// - Parameters:
///   - observe: The part of the tested store's state that the test asserts.
///   - feature: The store of the board to test.
///   - saved: The board on disk when the app starts; restoring it is not asserted.
///   - remote: How the in-process remote behaves.
///   - writer: Where saves go; `nil` keeps the board in memory only (no save effect).
///   - fileID: Where the test creates the store; failures found when it is released point here.
///   - filePath: See `fileID`.
///   - line: See `fileID`.
///   - column: See `fileID`.
/// - Returns: The test store, and the environment the board was built with (its remote counts calls).
func boardTestStore<State: Sendable, TreeState: Sendable>(
    observing observe: @escaping @Sendable (TreeState) -> State,
    of feature: (Board) -> StateStore<TreeState, AppAction>,
    saved: TasksSnapshot? = nil,
    remote: RemoteService.Configuration = TestBoard.remote(),
    writer: RecordingWriter? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> (store: TestStore<State, AppAction>, environment: Environment) {
    var built: Environment?
    let store = TestStore(
        observing: observe,
        build: { scheduler in
            let environment = withDependencies {
                $0.scheduler = scheduler
                $0.remote = RemoteService(configuration: remote, sleeper: Sleeper(scheduler: scheduler))
            } operation: {
                var environment = Environment(
                    now: { TestBoard.start.addingTimeInterval(scheduler.now) },
                    writer: writer
                )
                environment.sync = TestBoard.sync
                return environment
            }
            built = environment
            return feature(Board(today: TestBoard.day, saved: saved, environment: environment))
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
    guard let built else { preconditionFailure("TestStore did not call build") }
    return (store, built)
}

/// An ``Effect/State`` as tests state it: its status, attempt and delay, without the identity of the
/// run, which is new (and random) at every start.
struct TestedRun: Equatable {
    var status: Effect.State.Status
    var attempt: Int?
    var delay: TimeInterval?

    init(_ run: Effect.State) {
        status = run.status
        attempt = run.currentAttempt
        delay = run.delay
    }

    init(_ status: Effect.State.Status, attempt: Int? = nil, delay: TimeInterval? = nil) {
        self.status = status
        self.attempt = attempt
        self.delay = delay
    }

    static let succeeded = TestedRun(.success)
    static let cancelled = TestedRun(.cancelled)

    /// Attempt `attempt` (0 for the first), waiting `delay` seconds before it starts.
    static func attempt(_ attempt: Int, after delay: TimeInterval = 0) -> TestedRun {
        TestedRun(.inProgress, attempt: attempt, delay: delay)
    }
}
