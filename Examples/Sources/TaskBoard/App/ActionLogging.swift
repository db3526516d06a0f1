import Canopy
import Foundation

/// TaskBoard's action log: `--record <file>` writes every action of a run, `taskboard replay <file>`
/// rebuilds the board from it (Docs/ActionLog.md).
///
/// The recorder sits last in the root's middleware, so it sees the actions of every store of the
/// board. The replayed board is built without effects: the log already holds what they sent (saves,
/// search results, sync attempts, fired reminders), in the order the board handled it.
enum ActionLogging {
    /// The app version written in each log. Change it when `AppAction` changes in a way old logs would
    /// not decode as they meant, so that `replay` refuses them instead of replaying something else.
    static let appVersion = "taskboard actions 2"

    /// Starts recording `board`'s actions to `path`, then sends what the board starts from (today and
    /// the saved board), so that the log replays into an empty board.
    static func record(
        _ board: Board,
        to path: String,
        today: Day,
        saved: TasksSnapshot?
    ) throws(CommandFailure) -> ActionRecorder<AppAction> {
        let recorder: ActionRecorder<AppAction>
        do {
            recorder = try ActionRecorder(file: URL(fileURLWithPath: expanded(path)), appVersion: appVersion)
        } catch {
            throw CommandFailure("cannot record the actions: \(error)")
        }
        board.root.use(recorder.middleware())
        board.root.dispatch(.setToday(today))
        if let saved {
            board.tasks.dispatch(.tasks(.restore(saved)))
        }
        return recorder
    }

    /// Replays the log at `path` into a new board without effects, saves the board it gives in
    /// `folder`, and returns the board's session (for printing it) and how many actions were replayed.
    static func replay(
        _ path: String,
        into folder: DataDirectory,
        console: Console
    ) async throws(CommandFailure) -> (session: Session, replayed: Int) {
        let path = expanded(path)
        let log: ActionLog<AppAction>
        do {
            // Read here rather than by `ActionLog(contentsOf:)`, so that a missing or unreadable file is
            // described in the same words as every other file TaskBoard reads.
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            log = try ActionLog(data: data, appVersion: appVersion)
        } catch let error as ActionLogError {
            throw CommandFailure(describe(error, path: path))
        } catch {
            throw CommandFailure("cannot read the action log \(path) (\(ErrorText.describe(error)))")
        }
        if let truncation = log.truncation {
            console.notice("\(path): \(truncation)")
        }
        for entry in log.entries {
            if let problem = problem(with: entry.action) {
                throw CommandFailure("\(path): line \(entry.line): \(problem)", hint: "nothing was replayed")
            }
        }
        let day = Day(Date())
        let board = Board(today: day, saved: nil, environment: Environment(), effects: false)
        let targets = [
            ReplayTarget(board.root), ReplayTarget(board.tasks), ReplayTarget(board.search), ReplayTarget(board.sync),
            ReplayTarget(board.stats),
        ]
        let report: ReplayReport
        do {
            report = try await log.replay(into: targets)
        } catch {
            throw CommandFailure(describe(error, path: path))
        }
        if !report.notReduced.isEmpty {
            console.notice("\(path): the actions of lines \(report.notReduced) were not reduced this time")
        }
        let tasks = await board.tasks.state.1
        do {
            let database = try TaskStorage.open(folder, now: Date()).database
            try await database.apply(upserts: Array(tasks.items), deletions: [])
            database.close()
        } catch {
            throw CommandFailure("could not save the replayed board to \(error.path) (\(error.cause))")
        }
        let today = await board.root.state.today
        var session = Session(board: board, console: console, mode: .script, today: { today })
        session.tasksPath = folder.databaseURL.path
        return (session, report.replayed)
    }

    /// What makes a logged action unfit to replay, checked as a command or a file would be: a task id
    /// outside ``TaskItem/ids``, or a board that a JSON file could not hold.
    static func problem(with action: AppAction) -> String? {
        let board: TasksSnapshot
        switch action {
        case .tasks(.restore(let snapshot)), .tasks(.replace(let snapshot)):
            board = snapshot
        case .tasks(.merge(let upserts, let deletions, let nextID)):
            if let id = deletions.first(where: { !TaskItem.ids.contains($0) }) {
                return TasksSnapshot.Problem.invalidID(id).description
            }
            board = TasksSnapshot(nextID: nextID, tasks: upserts)
        case .sync(.pulled(let stored?)):
            board = stored.board
        case .tasks(let action):
            guard let id = action.taskID, !TaskItem.ids.contains(id) else { return nil }
            return TasksSnapshot.Problem.invalidID(id).description
        default:
            return nil
        }
        do {
            _ = try board.validated()
            return nil
        } catch {
            return error.description
        }
    }

    private static func describe(_ error: ActionLogError, path: String) -> String {
        if case .io = error { return error.description }
        return "\(path): \(error)"
    }

    private static func expanded(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }
}

extension Session {
    /// Writes the last recorded actions and closes the log, if this run records; returns `false`
    /// (after saying why) when the log could not be written.
    func stopRecording() -> Bool {
        guard let recorder else { return true }
        do {
            try recorder.close()
            return true
        } catch {
            console.error("the action log is incomplete: \(error)")
            return false
        }
    }
}
