import GRDB

extension TaskDatabase {
    /// The schema, one migration per change; a migration, once released, is never edited.
    ///
    /// - `v1`: `tasks` (one row per task, the id as `INTEGER PRIMARY KEY`) and `board`, a single row
    ///   with the id counter (``reserveID()``) and whether `tasks.json` was looked for (``TaskStorage``).
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE tasks (
                        id INTEGER PRIMARY KEY,
                        title TEXT NOT NULL,
                        done BOOLEAN NOT NULL DEFAULT 0,
                        tags TEXT NOT NULL DEFAULT '[]',
                        due TEXT
                    );
                    CREATE TABLE board (
                        id INTEGER PRIMARY KEY CHECK (id = 1),
                        next_id INTEGER NOT NULL,
                        json_checked BOOLEAN NOT NULL
                    );
                    INSERT INTO board (id, next_id, json_checked) VALUES (1, 1, 0);
                    """
            )
        }
        return migrator
    }()

    /// Applies the migrations this database lacks.
    ///
    /// Each migration is a transaction of its own; two processes opening a new database at once may
    /// both try the same one, and the second then fails on the tables the first made. That is not an
    /// error: the schema is checked again and the migration is retried only if it is still missing.
    func migrate() throws(TaskDatabaseError) {
        let migrator = Self.migrator
        for attempt in 1...3 {
            do {
                if try queue.read({ db in try migrator.hasBeenSuperseded(db) }) {
                    throw TaskDatabaseError(
                        kind: .newerSchema,
                        path: path,
                        cause: "the database was written by a newer TaskBoard; update TaskBoard to open it"
                    )
                }
                if try queue.read({ db in try migrator.hasCompletedMigrations(db) }) { return }
                guard !options.readOnly else {
                    throw TaskDatabaseError(
                        kind: .readOnly,
                        path: path,
                        cause: "the database needs an update, and it is read-only"
                    )
                }
                try migrator.migrate(queue)
                return
            } catch let error as TaskDatabaseError {
                throw error
            } catch {
                if attempt == 3 { throw TaskDatabaseError(error, path: path, busyTimeout: options.busyTimeout) }
            }
        }
    }
}
