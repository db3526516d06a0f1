import Canopy
import CanopyPersistence
import Synchronization

/// A run of TaskBoard: the board, where to write, and whether a person is typing.
///
/// Commands run one at a time through ``run(_:)``; each one first brings the root's `today` up to date.
struct Session: Sendable {
    enum Mode: Sendable {
        /// A person types commands at a prompt: errors do not end the session.
        case interactive
        /// Commands come from a file or standard input: the first error ends the run.
        case script
        /// One command from the command line.
        case oneShot
    }

    let board: Board
    let console: Console
    let mode: Mode
    /// Today's date, from the clock or from `--today`.
    let today: @Sendable () -> Day
    /// Why the board cannot be changed (path and cause), or `nil` when it can.
    var readOnlyReason: String?
    /// Where the board is saved, for messages; `nil` when it lives in memory.
    var tasksPath: String?
    /// Whether a file of the data folder was moved aside when the board was opened: the run then exits
    /// non-zero, so that a script does not carry on as if nothing happened.
    var movedAside = false
    /// Records the run's actions when `--record` asks for it; closed by ``stopRecording()``.
    var recorder: ActionRecorder<AppAction>?
    let events = SessionEvents()

    var theme: Theme { console.theme }

    /// Runs one command: takes what other processes stored meanwhile, updates `today`, then executes it.
    func run(_ command: any BoardCommand) async throws(CommandFailure) {
        await reloadIfChanged()
        let day = today()
        if await board.root.state.today != day {
            await board.root.send(.setToday(day))
        }
        try await command.execute(in: self)
    }

    // MARK: Other processes

    /// Takes what other processes committed to the database since this run last read it, without
    /// writing it back; returns what was taken, or `nil` when nothing changed (one `PRAGMA` tells).
    ///
    /// When there is something to read, what this run has not stored yet (a script's debounced writes)
    /// is stored first, so that what is read back includes it. A database that cannot be read is said;
    /// the command goes on with the board as it was, and its write still cannot undo another process's
    /// change.
    @discardableResult
    func reloadIfChanged() async -> TaskDatabase.ExternalChanges? {
        guard let database = board.environment.database else { return nil }
        let changes: TaskDatabase.ExternalChanges?
        do {
            guard try database.hasExternalChanges() else { return nil }
            if mode == .script, board.environment.writer != nil {
                // A failure is reported by the background reporter, and the changes stay pending.
                try? await board.tasks.flush()
            }
            changes = try database.changesSinceLastRead()
        } catch {
            console.error("could not read the changes of other sessions: \(error.description)")
            return nil
        }
        guard let changes else { return nil }
        if !changes.upserts.isEmpty || !changes.deletions.isEmpty {
            await board.tasks.send(
                .tasks(.merge(upserts: changes.upserts, deletions: changes.deletions, nextID: changes.nextID))
            )
        }
        return changes
    }

    // MARK: Tasks

    /// The Tasks state, after everything sent before.
    func tasks() async -> TasksState {
        await board.tasks.state.1
    }

    /// Sends a tasks action and returns what it did.
    @discardableResult
    func send(_ action: TasksAction) async -> TasksEvent? {
        await board.tasks.send(.tasks(action)).1.lastEvent
    }

    /// Sends a change to the tasks and returns what it did, once it is stored.
    ///
    /// Throws without changing anything when the board is read-only. At the prompt and on the command
    /// line the change is written before this returns (`flush()`), so that "added" is never printed for
    /// a change that a signal or a full disk would lose; a script keeps the debounced writes (one batch
    /// per burst), and its end writes what is left.
    func change(_ action: TasksAction) async throws(CommandFailure) -> TasksEvent? {
        try requireWritable()
        let state = try await reduced(.tasks(action)).1
        guard mode != .script, board.environment.writer != nil else { return state.lastEvent }
        events.awaitingSave(true)
        defer { events.awaitingSave(false) }
        do {
            try await board.tasks.flush()
        } catch  where error.isConflict {
            // Another process deleted a task this change was about: nothing of it was written.
            await reloadIfChanged()
            throw CommandFailure(Self.deletedElsewhere(error.underlying), hint: "nothing was changed")
        } catch {
            events.commandReportedSaveFailure()
            throw CommandFailure(
                "could not save the change to \(tasksPath ?? "the data folder") "
                    + "(\(ErrorText.describe(error.underlying)))",
                hint: "it is kept in memory and retried; the next change, and leaving TaskBoard, try again"
            )
        }
        return state.lastEvent
    }

    /// What a writer's conflict means to the user: the tasks another session deleted.
    private static func deletedElsewhere(_ conflict: any Error) -> String {
        guard let ids = (conflict as? WriteConflict<Int>)?.ids else { return "\(conflict)" }
        return ids.map { "task #\($0) was deleted by another session" }.joined(separator: "; ")
    }

    /// A task number reserved in the database for a task this run adds, or `nil` when the board lives
    /// in memory and numbers its tasks itself.
    func reserveID() async throws(CommandFailure) -> Int? {
        guard let database = board.environment.database else { return nil }
        try requireWritable()
        do {
            return try await database.reserveID()
        } catch {
            throw CommandFailure(
                "could not add the task to \(error.path) (\(error.cause))",
                hint: "nothing was changed"
            )
        }
    }

    /// Sends `action` to the tasks store and returns the state right after it, or throws what the
    /// middleware made of it: the broken rule when `TaskRules.validate` blocked it.
    private func reduced(_ action: AppAction) async throws(CommandFailure) -> TasksStoreState {
        switch await board.tasks.outcome(of: action) {
        case .reduced(let state):
            return state
        case .blocked:
            throw CommandFailure(TaskRules.problem(with: action) ?? "the change was refused")
        case .failed(let error):
            throw CommandFailure("the change failed: \(error)")
        }
    }

    /// Throws, naming the path and the cause, when the board is read-only.
    func requireWritable() throws(CommandFailure) {
        if let readOnlyReason {
            throw CommandFailure(
                "cannot change the board: \(readOnlyReason)",
                hint: "nothing was changed; make it writable, or use another --data-dir"
            )
        }
    }

    /// Text for tasks as of today.
    func taskView() async -> TaskView {
        TaskView(theme: theme, today: await board.root.state.today)
    }

    /// Throws unless the task exists.
    func requireTask(_ id: Int) async throws(CommandFailure) -> TaskItem {
        let tasks = await tasks()
        guard let task = tasks.task(id) else {
            throw tasks.missing(id) == .deletedElsewhere(id: id) ? .deletedElsewhere(id) : .noTask(id)
        }
        return task
    }

    // MARK: Stats

    /// The Stats props for the current state, as the Stats subscription delivers them: computed on the
    /// presentation queue once the board has been quiet for the debounce delay.
    func statsProps() async -> StatsProps {
        await board.statsPresenter.props(for: StatsProps.Input(await board.stats.state))
    }

    // MARK: Ending

    /// Finishes the run: waits for a running sync, then writes unsaved changes now. Returns `false`
    /// (after saying why) if the board could not be saved.
    ///
    /// After a signal (`interrupted`), a running sync is cancelled instead of awaited.
    func finish(interrupted: Bool = false) async -> Bool {
        events.finishing()
        if interrupted, await board.sync.state.1.run.isInProgress {
            await board.sync.send(.sync(.cancel))
        }
        // The end of the run reports the sync itself, not as a background event.
        _ = events.takeBackgroundSync()
        if await board.sync.state.1.run.isInProgress {
            // No command can be typed any more: Ctrl-C (a SIGINT) is what stops it now.
            console.notice("waiting for the running sync to finish (Ctrl-C cancels it and leaves)")
            let sync = await SyncProgress.follow(board.sync, console: console)
            if sync.run.isFailed { console.error(SyncStatus.line(sync)) }
        }
        let waiting = await board.tasks.state.1.reminders.count
        if waiting > 0 {
            console.notice("\(waiting == 1 ? "1 reminder had" : "\(waiting) reminders had") not fired yet; dropped")
        }
        guard board.environment.writer != nil else { return true }
        // A database another process keeps locked is worth a few more tries before the run gives up
        // what it could not save; any other failure is final at once.
        var attempts = 0
        while true {
            do {
                try await board.tasks.flush()
                return true
            } catch  where error.isConflict {
                // Reported by the background reporter; the rest of the changes go in the next round.
                continue
            } catch {
                attempts += 1
                if attempts < 3, (error.underlying as? TaskDatabaseError)?.kind == .locked {
                    continue
                }
                console.error(
                    "could not save the board to \(tasksPath ?? "the data folder") "
                        + "(\(ErrorText.describe(error.underlying))); the changes that were not saved are lost"
                )
                return false
            }
        }
    }

    /// Reports what happens in the background: failed writes, reminders, and the end of a background
    /// sync. Each is reported once; a write that is retried is reported when its last attempt fails.
    func reportBackgroundEvents() -> [Subscription] {
        let console = self.console
        let events = self.events
        let path = tasksPath ?? "the data folder"
        // The first failure of a run of failures, while no command waits for its write; then the write
        // that ends it.
        board.environment.saves.report { event, failure in
            switch event {
            case .failed(_, _, let attempt, let retryAfter):
                guard attempt == 1, let failure, events.takeSaveFailure() else { return }
                console.error(
                    "could not save the board to \(path) (\(failure.reason)); the tasks stay in memory, "
                        + "and the write is retried (next in \(DurationText.text(retryAfter)))"
                )
            case .wrote:
                if events.takeSaveRecovery() { console.notice("the board is saved again to \(path)") }
            case .conflicted(_, let conflict):
                guard events.reportsConflictInBackground() else { return }
                console.error(Self.deletedElsewhere(conflict) + "; the change to it was not saved")
            case .dropped:
                break
            }
        }
        let syncs = board.sync.subscribe(removeStateDuplicates: .keyPath(\.1.run)) { state in
            let sync = state.1
            guard !sync.run.isInProgress, events.takeBackgroundSync() else { return }
            let outcome = SyncStatus.line(sync)
            if sync.run.isFailed {
                console.error("background \(outcome)")
            } else {
                console.line("background \(sync.direction?.rawValue ?? "sync") finished: \(outcome)")
            }
        }
        let seenReminders = Mutex(0)
        let theme = self.theme
        let reminders = board.tasks.subscribe(removeStateDuplicates: .keyPath(\.1.firedReminders.count)) { state in
            let fired = state.1.firedReminders
            let new = seenReminders.withLock { seen in
                defer { seen = fired.count }
                return Array(fired.dropFirst(seen))
            }
            for task in new {
                console.line(theme.warning("reminder: ") + TaskView(theme: theme, today: state.0.today).line(task))
            }
        }
        return [reminders, syncs]
    }
}
