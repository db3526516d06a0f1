import ArgumentParser
import Canopy
import CanopyPersistence

/// `push [--background]`
struct PushCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Upload the board to the remote, retrying with backoff.",
        discussion: "Progress shows on one status line. 'cancel' stops a background push."
    )

    @Flag(help: "Start it and return; 'wait' shows its progress, 'cancel' stops it.")
    var background = false

    func execute(in session: Session) async throws(CommandFailure) {
        try await SyncCommands.start(.push, background: background, in: session)
    }
}

/// `pull [--background]`
struct PullCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Replace the board with the remote's, retrying with backoff."
    )

    @Flag(help: "Start it and return; 'wait' shows its progress, 'cancel' stops it.")
    var background = false

    func execute(in session: Session) async throws(CommandFailure) {
        try await SyncCommands.start(.pull, background: background, in: session)
    }
}

/// `cancel`
struct CancelCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel the running push or pull, even while it waits to retry."
    )

    func execute(in session: Session) async throws(CommandFailure) {
        _ = session.events.takeBackgroundSync()
        let before = await session.board.sync.state.1
        guard before.run.isInProgress else {
            session.console.line("no sync is running")
            return
        }
        let attempt = (before.run.currentAttempt ?? 0) + 1
        await session.board.sync.send(.sync(.cancel))
        let name = before.direction?.rawValue ?? "sync"
        session.console.line("\(name) cancelled during attempt \(attempt) of \(before.settings.maxAttempts)")
    }
}

/// `wait`
struct WaitCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "wait",
        abstract: "Wait for a background push or pull, showing its progress."
    )

    func execute(in session: Session) async throws(CommandFailure) {
        _ = session.events.takeBackgroundSync()
        let sync = await session.board.sync.state.1
        guard sync.run.isInProgress else {
            if let outcome = sync.lastOutcome, sync.run.isFailed {
                throw CommandFailure(
                    "no sync is running; the last one ended: \(outcome)",
                    hint: "'push' or 'pull' to try again"
                )
            } else if let outcome = sync.lastOutcome {
                session.console.line("no sync is running; the last one ended: \(outcome)")
            } else {
                session.console.line("no sync is running")
            }
            return
        }
        try SyncCommands.check(await SyncProgress.follow(session.board.sync, console: session.console))
    }
}

/// `status`
struct StatusCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the sync status, auto-sync, and whether the board is saved."
    )

    func execute(in session: Session) async throws(CommandFailure) {
        let sync = await session.board.sync.state.1
        let actions = await session.board.root.state.actionCount
        var lines = ["sync: " + SyncStatus.line(sync)]
        lines.append(
            sync.autoSync
                ? "auto-sync: on, every \(DurationText.text(sync.settings.autoSyncInterval))" : "auto-sync: off"
        )
        if let reason = session.readOnlyReason {
            lines.append("saved: the board is read-only (\(reason))")
        } else if session.board.environment.writer == nil {
            lines.append("saved: no data folder; the board lives in memory")
        } else {
            // Writes what is pending now, so that the answer is about every change made so far.
            do {
                try await session.board.tasks.flush()
                lines.append("saved: yes")
            } catch {
                lines.append(
                    "saved: no, the last write failed (\(ErrorText.describe(error.underlying))); it is retried"
                )
            }
        }
        lines.append("actions reduced by the root so far: \(actions)")
        session.console.lines(lines)
    }
}

/// `autosync on|off [--every <seconds>]`
struct AutoSyncCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "autosync",
        abstract: "Push the board periodically while TaskBoard runs."
    )

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on
        case off
    }

    @Argument(help: "on or off.")
    var state: Switch

    func execute(in session: Session) async throws(CommandFailure) {
        if session.mode == .oneShot && state == .on {
            throw CommandFailure(
                "auto-sync pushes only while TaskBoard runs",
                hint: "turn it on at the prompt: run taskboard without arguments"
            )
        }
        let sync = await session.board.sync.send(.sync(.setAutoSync(state == .on))).1
        session.console.line(
            state == .on
                ? "auto-sync on: pushing every \(DurationText.text(sync.settings.autoSyncInterval))" : "auto-sync off"
        )
    }
}

/// What push and pull share.
enum SyncCommands {
    static func start(
        _ direction: SyncState.Direction,
        background: Bool,
        in session: Session
    ) async throws(CommandFailure) {
        let store = session.board.sync
        let before = await store.state.1
        if before.run.isInProgress {
            let running = before.direction?.rawValue ?? "sync"
            throw CommandFailure("a \(running) is already running", hint: "'wait' for it or 'cancel' it")
        }
        if direction == .pull { try session.requireWritable() }
        let inBackground = background && session.mode != .oneShot
        if inBackground { session.events.startedBackgroundSync() }
        switch await store.outcome(of: .sync(.start(direction))) {
        case .reduced:
            break
        case .blocked:
            if inBackground { _ = session.events.takeBackgroundSync() }
            throw SyncThrottle.refusal(interval: session.board.environment.syncThrottle)
        case .failed(let error):
            if inBackground { _ = session.events.takeBackgroundSync() }
            throw CommandFailure("the \(direction.rawValue) could not start: \(error)")
        }
        guard !inBackground else {
            session.console.line("\(direction.rawValue) started in the background; you will be told when it ends")
            return
        }
        try check(await SyncProgress.follow(store, console: session.console))
    }

    /// Throws if the sync failed (its outcome was already shown).
    static func check(_ state: SyncState) throws(CommandFailure) {
        if state.run.isFailed {
            throw CommandFailure(state.lastOutcome ?? "the sync failed", hint: "'push' or 'pull' to try again")
        }
    }
}
