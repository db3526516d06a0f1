import Foundation
import GRDB

/// Opens the board's database in a data folder, the way a run of TaskBoard needs it:
///
/// - a `tasks.sqlite` that is not an SQLite database, or fails `PRAGMA quick_check`, is moved aside to
///   `tasks.sqlite.corrupt-<timestamp>` (with its `-wal` and `-shm` files, so that the copy opens as it
///   was), never overwritten, and a new database is started;
/// - the first time a database is opened, a `tasks.json` left by an older TaskBoard is imported into it,
///   in the same transaction that records the import, then renamed to `tasks.json.imported`. Two
///   processes starting at once import it once: the second finds the import recorded.
enum TaskStorage {
    /// What opening found, for the notices the user sees.
    struct Opened: Sendable {
        let database: TaskDatabase
        /// Files that could not be used and were renamed, with the reason, in the order it happened.
        var movedAside: [(from: URL, to: URL, reason: String)] = []
        /// How many tasks were imported from `tasks.json`, and where the file went; `nil` when nothing
        /// was imported.
        var imported: (count: Int, movedTo: URL?)?
    }

    static func open(
        _ folder: DataDirectory,
        now: Date,
        options: TaskDatabase.Options = TaskDatabase.Options()
    ) throws(TaskDatabaseError) -> Opened {
        let url = folder.databaseURL
        var movedAside: [(from: URL, to: URL, reason: String)] = []
        var lock: FolderLock?
        defer { withExtendedLifetime(lock) {} }
        if !options.readOnly {
            do {
                try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            } catch {
                throw TaskDatabaseError(error, path: url.path)
            }
            // One process opens the board at a time: a check must never see a database another run is
            // creating (see `FolderLock`).
            lock = FolderLock(folder.url, timeout: options.busyTimeout)
        }
        if FileManager.default.fileExists(atPath: url.path),
            let reason = try unsoundReason(url, options: options)
        {
            guard !options.readOnly else {
                throw TaskDatabaseError(
                    kind: .corrupt,
                    path: url.path,
                    cause: "the database \(reason); the board is read-only, so it is left where it is"
                )
            }
            movedAside.append((url, try setAside(url, reason: reason, now: now), reason))
        }
        let database = try TaskDatabase(url: url, options: options)
        var opened = Opened(database: database, movedAside: movedAside)
        guard !options.readOnly else { return opened }
        let tasksFile = folder.tasksFile
        // The JSON file is read inside the transaction, so that only one process imports it.
        var jsonNotice: (from: URL, to: URL, reason: String)?
        let imported: Int? = try database.inImmediateTransaction { db in
            guard try Bool.fetchOne(db, sql: "SELECT json_checked FROM board") == false else { return nil }
            try db.execute(sql: "UPDATE board SET json_checked = 1")
            switch try tasksFile.load(now: now, validate: { try $0.validated() }) {
            case .missing:
                return nil
            case .movedAside(let movedTo, let reason):
                jsonNotice = (tasksFile.url, movedTo, reason)
                return nil
            case .loaded(let snapshot):
                try TaskDatabase.apply(upserts: snapshot.tasks, deletions: [], in: db)
                try db.execute(
                    sql: "UPDATE board SET next_id = max(next_id, ?)",
                    arguments: [snapshot.nextID]
                )
                return snapshot.tasks.count
            }
        }
        if let jsonNotice { opened.movedAside.append(jsonNotice) }
        if let imported {
            // Committed: a failed rename only leaves the file where it was; it is not read again.
            opened.imported = (imported, try? AsideFile.move(tasksFile.url, label: "imported"))
        }
        return opened
    }

    /// Why the database at `url` cannot be used, or `nil` when it can (or when the problem is not the
    /// file's: a lock, a permission). Opened read-only, so that nothing is written to a suspect file.
    private static func unsoundReason(_ url: URL, options: TaskDatabase.Options) throws(TaskDatabaseError) -> String? {
        do {
            return try TaskDatabase.check(url, busyTimeout: options.busyTimeout, immutable: options.immutable).map {
                "fails its integrity check (\($0))"
            }
        } catch  where error.kind == .corrupt {
            return "is unreadable (\(error.cause))"
        }
    }

    /// Renames a corrupt database and its companions; throws, naming both problems, if it cannot.
    private static func setAside(_ url: URL, reason: String, now: Date) throws(TaskDatabaseError) -> URL {
        do {
            return try AsideFile.move(url, label: "corrupt", now: now, companions: ["-wal", "-shm"])
        } catch {
            throw TaskDatabaseError(
                kind: .corrupt,
                path: url.path,
                cause: "the database \(reason), and it could not be moved aside (\(ErrorText.describe(error))); "
                    + "fix or remove it, then try again"
            )
        }
    }
}
