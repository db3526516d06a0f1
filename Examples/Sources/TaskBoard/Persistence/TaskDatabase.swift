import Foundation
import GRDB
import Synchronization

/// The board in SQLite, through GRDB: `tasks.sqlite` in the data folder.
///
/// - The schema comes from ``migrator``; the database is in WAL mode, so a reader never waits for the
///   writer, and with `synchronous = FULL`, so a committed write survives a power cut too, not only a
///   crash of the process: "added #3" is printed only once the task is stored.
/// - ``apply(upserts:deletions:)`` writes the tasks that changed, by id, in one transaction: it never
///   rewrites the table, so two processes on one folder do not erase each other's tasks. It writes only
///   the columns that differ from the row as this connection last read or wrote it, so an edit never
///   puts back a stale copy of a field another process changed; a task whose row another process
///   deleted is reported, not written back.
/// - ``changesSinceLastRead()`` tells another process's commits by SQLite's `PRAGMA data_version`, which
///   changes only when another connection commits: cheap enough to ask before every command.
/// - ``reserveID()`` hands out task ids from a counter in the database, under SQLite's write lock, so
///   two processes never give out the same number.
///
/// Every write is an `IMMEDIATE` transaction: it takes the write lock when it begins, waiting up to the
/// busy timeout for another process to finish, instead of failing halfway when its read snapshot turns
/// out to be stale.
///
/// A `DatabaseQueue` (one connection) rather than a `DatabasePool`: a TaskBoard process reads the
/// board once, when it opens, and then only writes, one batch at a time; a pool's extra reader
/// connections would sit idle, and a pool cannot open a WAL database read-only without its `-shm` file.
final class TaskDatabase: Sendable {
    struct Options: Sendable {
        /// How long a write waits for another process's lock before it fails with
        /// ``TaskDatabaseError/Kind/locked``.
        var busyTimeout: TimeInterval = 5
        /// Opens the database for reading only (a read-only file or folder).
        var readOnly = false
        /// Opens it as a file nobody changes while it is open (SQLite's `immutable`): without its `-wal`
        /// and `-shm` files, for a folder where they cannot be created. Set with ``readOnly``.
        var immutable = false
        /// The most pages the database may hold; a write beyond fails as a full disk would. For tests.
        var maxPageCount: Int?
    }

    /// The rows as this connection last read or wrote them, and the `data_version` of that read: the
    /// base a write compares with, and what a reload finds changed. Read and written only inside the
    /// queue's closures, so it changes in the order the database does.
    private struct Known {
        var rows: [Int: TaskRow] = [:]
        var dataVersion: Int?
    }

    /// What another process changed since this connection last read the board.
    struct ExternalChanges: Equatable, Sendable {
        /// The tasks added or changed, by id.
        var upserts: [TaskItem]
        /// The ids deleted.
        var deletions: [Int]
        /// The id counter.
        var nextID: Int
    }

    let url: URL
    let options: Options
    private let known = Mutex(Known())
    /// The connection. Everything outside this type goes through its methods; tests use it to hold the
    /// write lock.
    let queue: DatabaseQueue

    var path: String { url.path }

    /// Opens (and creates, unless read-only) the database at `url`, and brings its schema up to date.
    ///
    /// Throws a ``TaskDatabaseError``: ``TaskDatabaseError/Kind/corrupt`` when the file is not an
    /// SQLite database; the caller decides what to do with it (``TaskStorage`` moves it aside).
    init(url: URL, options: Options = Options()) throws(TaskDatabaseError) {
        self.url = url
        self.options = options
        var configuration = Configuration()
        configuration.readonly = options.readOnly || options.immutable
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.label = "taskboard.tasks"
        if let pages = options.maxPageCount {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }
        }
        do {
            queue = try DatabaseQueue(
                path: options.immutable ? Self.immutableURI(url) : url.path,
                configuration: configuration
            )
            if !configuration.readonly {
                try Self.retryingDeadlock(for: options.busyTimeout) {
                    try queue.writeWithoutTransaction { db in
                        // Persistent in the file: set once, a no-op afterwards.
                        try db.execute(sql: "PRAGMA journal_mode = WAL")
                        try db.execute(sql: "PRAGMA synchronous = FULL")
                    }
                }
            }
        } catch {
            throw TaskDatabaseError(error, path: url.path, busyTimeout: options.busyTimeout)
        }
        try migrate()
    }

    /// Runs `body`, again after a short pause while it fails with `SQLITE_BUSY`, for up to `timeout`
    /// seconds.
    ///
    /// Two processes that open a new database at once both switch it from the rollback journal to WAL,
    /// which needs the exclusive lock while each holds a shared one: SQLite sees the deadlock and fails
    /// one of them at once, without waiting out the busy timeout. Trying again after the other is done
    /// is what the busy timeout would have done.
    private static func retryingDeadlock(for timeout: TimeInterval, _ body: () throws -> Void) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
    }

    /// Closes the connection; the database must not be used afterwards.
    func close() {
        try? queue.close()
    }

    // MARK: Reading

    /// Every task, ordered by id; the rows become the base of later writes and reloads.
    func loadAll() throws(TaskDatabaseError) -> [TaskItem] {
        let rows: [TaskRow]
        do {
            rows = try queue.read { db in
                let rows = try TaskRow.order(Column("id")).fetchAll(db)
                let version = try Int.fetchOne(db, sql: "PRAGMA data_version")
                known.withLock { known in
                    known.rows = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
                    known.dataVersion = version
                }
                return rows
            }
        } catch {
            throw failure(error)
        }
        return try tasks(from: rows)
    }

    /// Whether another process committed since this connection last read the board: one
    /// `PRAGMA data_version`, outside a transaction (it needs none, and one costs more than the pragma).
    func hasExternalChanges() throws(TaskDatabaseError) -> Bool {
        do {
            return try queue.inDatabase { db in
                try Int.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) != known.withLock { $0.dataVersion }
            }
        } catch {
            throw failure(error)
        }
    }

    /// What other processes committed since this connection last read the board, or `nil` when nothing
    /// (one `PRAGMA data_version` tells). The rows read become the new base.
    func changesSinceLastRead() throws(TaskDatabaseError) -> ExternalChanges? {
        let found: (rows: [TaskRow], deletions: [Int], nextID: Int)?
        do {
            found = try queue.read { db in
                let version = try Int.fetchOne(db, sql: "PRAGMA data_version")
                guard known.withLock({ $0.dataVersion }) != version else { return nil }
                let rows = try TaskRow.fetchAll(db)
                let next = try Int.fetchOne(db, sql: "SELECT next_id FROM board") ?? 1
                return known.withLock { known in
                    let current = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
                    let changed = rows.filter { known.rows[$0.id] != $0 }.sorted { $0.id < $1.id }
                    let deletions = known.rows.keys.filter { current[$0] == nil }.sorted()
                    known.rows = current
                    known.dataVersion = version
                    return (changed, deletions, next)
                }
            }
        } catch {
            throw failure(error)
        }
        guard let found else { return nil }
        return ExternalChanges(upserts: try tasks(from: found.rows), deletions: found.deletions, nextID: found.nextID)
    }

    private func tasks(from rows: [TaskRow]) throws(TaskDatabaseError) -> [TaskItem] {
        do {
            return try rows.map { row throws(TaskRowProblem) in try row.task() }
        } catch {
            throw TaskDatabaseError(kind: .corrupt, path: path, cause: error.description)
        }
    }

    /// The board as a snapshot: every task, and the next id the counter would give.
    func snapshot() throws(TaskDatabaseError) -> TasksSnapshot {
        let tasks = try loadAll()
        let next: Int
        do {
            next = try queue.read { db in try Int.fetchOne(db, sql: "SELECT next_id FROM board") } ?? 1
        } catch {
            throw failure(error)
        }
        return TasksSnapshot(nextID: max(next, (tasks.map(\.id).max() ?? 0) + 1), tasks: tasks)
    }

    /// Runs SQLite's `quick_check` on the database at `url`, opened read-only: `nil` when it is sound,
    /// else what is wrong, in words. Throws ``TaskDatabaseError/Kind/corrupt`` when the file is not an
    /// SQLite database at all.
    static func check(
        _ url: URL,
        busyTimeout: TimeInterval,
        immutable: Bool = false
    ) throws(TaskDatabaseError) -> String? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let lines: [String]
        do {
            let queue = try DatabaseQueue(path: immutable ? immutableURI(url) : url.path, configuration: configuration)
            defer { try? queue.close() }
            lines = try queue.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        } catch {
            throw TaskDatabaseError(error, path: url.path, busyTimeout: busyTimeout)
        }
        return lines == ["ok"] ? nil : lines.prefix(3).joined(separator: "; ")
    }

    // MARK: Writing

    /// Stores `upserts` and removes `deletions`, in one transaction, and returns the ids of the tasks
    /// it could not store because another process deleted their row (then nothing is stored).
    ///
    /// A task this connection read or wrote before gets an `UPDATE` of the columns that differ from that
    /// base, and none at all when nothing differs; a new task is inserted (or replaces the row with its
    /// id). Deletions go first, so a task deleted and added back within one batch is kept.
    @discardableResult
    func apply(upserts: [TaskItem], deletions: [Int]) async throws(TaskDatabaseError) -> [Int] {
        guard !upserts.isEmpty || !deletions.isEmpty else { return [] }
        do {
            return try await queue.writeWithoutTransaction { db in
                var gone: [Int] = []
                let base = known.withLock { $0.rows }
                let rows = upserts.map(TaskRow.init)
                try db.inTransaction(.immediate) {
                    for id in deletions {
                        try TaskRow.deleteOne(db, key: id)
                    }
                    for row in rows {
                        guard let old = base[row.id], !deletions.contains(row.id) else {
                            try row.upsert(db)
                            continue
                        }
                        if try !row.updateChangedColumns(from: old, in: db) { gone.append(row.id) }
                    }
                    guard gone.isEmpty else { return .rollback }
                    try Self.advanceCounter(in: db)
                    return .commit
                }
                if gone.isEmpty {
                    known.withLock { known in
                        for id in deletions { known.rows[id] = nil }
                        for row in rows { known.rows[row.id] = row }
                    }
                }
                return gone
            }
        } catch {
            throw failure(error)
        }
    }

    /// Reserves the next task id: the counter never goes below the largest id stored plus one, and
    /// each call, in any process, gets a number no other call got.
    func reserveID() async throws(TaskDatabaseError) -> Int {
        do {
            return try await queue.writeWithoutTransaction { db in
                var id = 0
                try db.inTransaction(.immediate) {
                    id = try Self.nextID(in: db)
                    // Only a hand-edited counter gets here: refused, rather than counted past the range.
                    guard TaskItem.ids.contains(id) else {
                        throw TaskDatabaseError(
                            kind: .corrupt,
                            path: path,
                            cause:
                                "the board's next task number, \(id), is past \(TaskItem.ids.upperBound), the last one"
                        )
                    }
                    try db.execute(sql: "UPDATE board SET next_id = ?", arguments: [id + 1])
                    return .commit
                }
                return id
            }
        } catch {
            throw failure(error)
        }
    }

    /// Runs `body` in an immediate transaction on this connection's queue, for the import of
    /// `tasks.json` (``TaskStorage``).
    func inImmediateTransaction<T>(_ body: (Database) throws -> T) throws(TaskDatabaseError) -> T {
        do {
            return try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { preconditionFailure("a committed transaction ran its body") }
                return result
            }
        } catch {
            throw failure(error)
        }
    }

    /// Stores `upserts` whole and removes `deletions`, for the import of `tasks.json` into a new board.
    static func apply(upserts: [TaskItem], deletions: [Int], in db: Database) throws {
        for id in deletions {
            try TaskRow.deleteOne(db, key: id)
        }
        for task in upserts {
            try TaskRow(task).upsert(db)
        }
        try advanceCounter(in: db)
    }

    /// An id written by a batch (a pull, an import) is never handed out again.
    private static func advanceCounter(in db: Database) throws {
        try db.execute(sql: "UPDATE board SET next_id = ?", arguments: [try nextID(in: db)])
    }

    /// The SQLite URI that opens the file at `url` as immutable.
    private static func immutableURI(_ url: URL) -> String {
        var components = URLComponents()
        components.scheme = "file"
        components.path = url.path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        return components.string ?? "file:\(url.path)?immutable=1"
    }

    /// The next free id: the counter, or the largest id stored plus one if that is more.
    private static func nextID(in db: Database) throws -> Int {
        let counter = try Int.fetchOne(db, sql: "SELECT next_id FROM board") ?? 1
        let largest = try Int.fetchOne(db, sql: "SELECT max(id) FROM tasks") ?? 0
        // Counting on from a hand-edited id of Int.max must not overflow; the range check catches it.
        return max(counter, min(largest, TaskItem.ids.upperBound) + 1)
    }

    private func failure(_ error: any Error) -> TaskDatabaseError {
        TaskDatabaseError(error, path: path, busyTimeout: options.busyTimeout)
    }
}
