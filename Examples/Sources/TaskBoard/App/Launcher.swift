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
        let opened = try openDatabase(
            folder,
            access: access,
            busyTimeout: options.lockWait,
            console: console,
            movedAside: &movedAside
        )
        var saved: TasksSnapshot?
        do {
            saved = try opened?.database.snapshot()
        } catch {
            throw CommandFailure(error.description, hint: "fix or move the database, or use another --data-dir")
        }
        if opened == nil {
            saved = readOnlyTasksFile(folder, console: console)
        }
        let remoteStored = try load(
            folder.remoteFile,
            console: console,
            what: "a remote copy",
            movedAside: &movedAside
        ) { try $0.validated() }
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
            var environment = Environment()
            let diagnostics = LogDiagnostics.standardError(level: options.logLevel.level)
            if let database = opened?.database {
                environment.writer = TaskWriter(database: database, logger: diagnostics.logger)
                environment.database = database
            }
            environment.sync = options.sync
            environment.diagnostics = diagnostics
            // A recorded run restores the saved board after the recorder is attached, so the log has it.
            return Board(today: today(), saved: options.record == nil ? saved : nil, environment: environment)
        }
        var session = Session(board: board, console: console, mode: mode, today: today)
        if let record = options.record {
            session.recorder = try ActionLogging.record(board, to: record, today: today(), saved: saved)
        }
        session.tasksPath = folder.databaseURL.path
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

    /// Opens the board's database (``TaskStorage``): says which files were moved aside and what was
    /// imported. A read-only folder without a database has no board to show: `nil`. Its writes wait up to
    /// `busyTimeout` seconds for another process's lock (`--lock-wait`).
    private static func openDatabase(
        _ folder: DataDirectory,
        access: DataDirectory.Access,
        busyTimeout: TimeInterval,
        console: Console,
        movedAside: inout Bool
    ) throws(CommandFailure) -> TaskStorage.Opened? {
        let readOnly = access != .writable
        if readOnly, !FileManager.default.fileExists(atPath: folder.databaseURL.path) { return nil }
        // A read-only board whose database has no `-wal` file holds everything in the database file:
        // opened as immutable, SQLite needs no `-wal` or `-shm` file, which a read-only folder could not
        // hold, and creates none.
        let walPath = folder.databaseURL.path + "-wal"
        let immutable = readOnly && !FileManager.default.fileExists(atPath: walPath)
        let opened: TaskStorage.Opened
        do {
            opened = try TaskStorage.open(
                folder,
                now: Date(),
                options: TaskDatabase.Options(busyTimeout: busyTimeout, readOnly: readOnly, immutable: immutable)
            )
        } catch {
            let hint =
                error.kind == .locked
                ? "another TaskBoard holds the board: try again once it is done, or wait longer with --lock-wait"
                : "fix or move the database, or use another --data-dir"
            throw CommandFailure(error.description, hint: hint)
        }
        for aside in opened.movedAside {
            movedAside = true
            let what = aside.from == folder.databaseURL ? "with a new database" : "without it"
            console.notice(
                "\(aside.from.path) \(aside.reason); moved it to \(aside.to.lastPathComponent) and started \(what)"
            )
        }
        if let imported = opened.imported {
            let tasks = imported.count == 1 ? "1 task" : "\(imported.count) tasks"
            let renamed = imported.movedTo.map { "; the file is now \($0.lastPathComponent)" } ?? ""
            console.notice(
                "imported \(tasks) from \(folder.tasksFile.url.path) into \(folder.databaseURL.lastPathComponent)\(renamed)"
            )
        }
        return opened
    }

    /// A read-only folder that has no database yet cannot import its `tasks.json`: the board shows the
    /// file's tasks instead, read without moving anything. `nil` when there is none, or it cannot be read.
    private static func readOnlyTasksFile(_ folder: DataDirectory, console: Console) -> TasksSnapshot? {
        let file = folder.tasksFile.url
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try JSONFile<TasksSnapshot>.read(file) { try $0.validated() }
        } catch {
            console.notice("\(file.path) \(error.description); the board is read-only, so it was left as it is")
            return nil
        }
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
