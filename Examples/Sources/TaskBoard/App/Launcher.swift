import Canopy
import Foundation

/// Opens the board a run works on: reads the data folder, builds the environment and the store tree.
///
/// The data folder (unless `--data-dir` names one) and the clock come from the dependencies in force;
/// the remote service is the one this run opens, on that clock, from the folder's `remote.json`.
enum Launcher {
    static func session(
        _ options: GlobalOptions,
        console: Console,
        mode: Session.Mode
    ) throws(CommandFailure) -> Session {
        let folder = options.dataDirectory
        let access: DataDirectory.Access
        do {
            access = try folder.check()
        } catch {
            throw CommandFailure(error.description)
        }
        var movedAside = false
        let saved = try load(folder.tasksFile, console: console, what: "tasks", movedAside: &movedAside) {
            try $0.validated()
        }
        let remoteStored = try load(
            folder.remoteFile,
            console: console,
            what: "a remote copy",
            movedAside: &movedAside
        ) { try $0.validated() }
        let tasksFile = folder.tasksFile
        let remote = RemoteService(
            configuration: options.remote,
            sleeper: Sleeper(scheduler: Dependency[\.scheduler]),
            file: folder.remoteFile,
            stored: remoteStored
        )
        let today = options.todayProvider
        let board = withDependencies {
            $0.remote = remote
        } operation: {
            var environment = Environment(writeTasks: { try tasksFile.save($0) })
            environment.sync = options.sync
            environment.diagnostics = LogDiagnostics.standardError(level: options.logLevel.level)
            // A recorded run restores the saved board after the recorder is attached, so the log has it.
            return Board(today: today(), saved: options.record == nil ? saved : nil, environment: environment)
        }
        var session = Session(board: board, console: console, mode: mode, today: today)
        if let record = options.record {
            session.recorder = try ActionLogging.record(board, to: record, today: today(), saved: saved)
        }
        session.tasksPath = tasksFile.url.path
        session.movedAside = movedAside
        // The board still has its writer: a read-only session refuses changes (``Session/change(_:)``),
        // so nothing is ever written.
        if case .readOnly(let reason) = access {
            session.readOnlyReason = reason
            if mode == .interactive {
                console.notice("\(reason); the board is read-only: you can look, but changes are refused")
            }
        }
        return session
    }

    /// Reads a JSON file of the data folder. A file that cannot be used is moved aside, never
    /// overwritten, and the user is told so in one line.
    private static func load<Value>(
        _ file: JSONFile<Value>,
        console: Console,
        what: String,
        movedAside: inout Bool,
        validate: (Value) throws -> Value
    ) throws(CommandFailure) -> Value? {
        do {
            switch try file.load(now: Date(), validate: validate) {
            case .missing:
                return nil
            case .loaded(let value):
                return value
            case .movedAside(let movedTo, let reason):
                movedAside = true
                console.notice(
                    "\(file.url.path) \(reason); moved it to \(movedTo.lastPathComponent) and started "
                        + "without \(what)"
                )
                return nil
            }
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
