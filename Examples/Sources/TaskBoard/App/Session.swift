import Canopy
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

    var theme: Theme { console.theme }

    /// Runs one command: updates `today`, then executes it.
    func run(_ command: any BoardCommand) async throws(CommandFailure) {
        let day = today()
        if await board.root.state.today != day {
            await board.root.send(.setToday(day))
        }
        try await command.execute(in: self)
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

    /// Text for tasks as of today.
    func taskView() async -> TaskView {
        TaskView(theme: theme, today: await board.root.state.today)
    }

    /// Throws unless the task exists.
    func requireTask(_ id: Int) async throws(CommandFailure) -> TaskItem {
        guard let task = await tasks().task(id) else { throw .noTask(id) }
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
    func finish() async -> Bool {
        if await board.sync.state.1.run.isInProgress {
            console.notice("waiting for the running sync to finish ('cancel' it to stop it)")
            let sync = await SyncProgress.follow(board.sync, console: console)
            if sync.run.isFailed { console.error(SyncStatus.line(sync)) }
        }
        let waiting = await board.tasks.state.1.reminders.count
        if waiting > 0 {
            console.notice("\(waiting == 1 ? "1 reminder had" : "\(waiting) reminders had") not fired yet; dropped")
        }
        guard board.environment.writeTasks != nil else { return true }
        await board.tasks.send(.tasks(.flush))
        for await state in board.tasks.states() where !state.1.saving.run.isInProgress {
            guard state.1.isSaved else {
                let reason = state.1.saving.lastFailure?.reason ?? "unknown error"
                console.error("the board could not be saved (\(reason)); the changes of this run are lost")
                return false
            }
            return true
        }
        return true
    }

    /// Reports what happens in the background: failed writes and reminders.
    func reportBackgroundEvents() -> [Subscription] {
        let console = self.console
        let seenFailures = Mutex(0)
        let failures = board.tasks.subscribe(removeStateDuplicates: .keyPath(\.1.saving.failureCount)) { state in
            let saving = state.1.saving
            let isNew = seenFailures.withLock { seen in
                defer { seen = saving.failureCount }
                return saving.failureCount > seen
            }
            guard isNew, let failure = saving.lastFailure else { return }
            let attempt = "attempt \(failure.attempt + 1) of \(saving.settings.maxAttempts)"
            if failure.willRetry {
                let delay = saving.run.delay.map { " in \(DurationText.text($0))" } ?? ""
                console.notice("could not save the board (\(failure.reason), \(attempt)); retrying\(delay)")
            } else {
                console.error(
                    "could not save the board (\(failure.reason), \(attempt)); "
                        + "the tasks stay in memory and the next change tries again"
                )
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
        return [failures, reminders]
    }
}
