import Canopy
import CanopyPersistence
import Foundation
import Synchronization

/// While a person sits at the prompt: every few seconds, on the app's scheduler, takes what other
/// processes stored in the board (``Session/reloadIfChanged()``) and says so above the prompt, so that an
/// open session does not show a stale board until the next command.
///
/// Only between commands: a command polls for itself before it runs.
final class ExternalChangesWatch: Sendable {
    private struct State {
        var timer: ScheduledWork?
        var isIdle = false
        var isStopped = false
    }

    private let session: Session
    private let interval: TimeInterval
    private let state = Mutex(State())

    private init(session: Session, interval: TimeInterval) {
        self.session = session
        self.interval = interval
    }

    /// Starts watching; `nil` for a board without a database.
    static func start(_ session: Session) -> ExternalChangesWatch? {
        guard session.board.environment.database != nil else { return nil }
        let watch = ExternalChangesWatch(session: session, interval: session.board.environment.externalChangesPoll)
        watch.schedule()
        return watch
    }

    /// Says whether the prompt waits for a line (`true`) or a command runs.
    func setIdle(_ idle: Bool) {
        state.withLock { $0.isIdle = idle }
    }

    /// Stops the timer for good.
    func stop() {
        let timer = state.withLock { state in
            state.isStopped = true
            return state.timer
        }
        timer?.cancel()
    }

    /// One poll, for tests: what a tick of the timer does.
    func poll() async {
        guard state.withLock({ $0.isIdle && !$0.isStopped }) else { return }
        let before = await session.tasks().items
        guard let changes = await session.reloadIfChanged() else { return }
        if let text = Self.describe(changes, before: before) {
            session.console.notice(text)
        }
    }

    private func schedule() {
        let environment = session.board.environment
        state.withLock { state in
            guard !state.isStopped else { return }
            state.timer = environment.scheduler.schedule(after: interval, on: environment.effectQueue) { [weak self] in
                guard let self else { return }
                Task {
                    await self.poll()
                    self.schedule()
                }
            }
        }
    }

    /// One line on what another session did, or `nil` when it changed no task.
    static func describe(_ changes: TaskDatabase.ExternalChanges, before: EntityStore<TaskItem>) -> String? {
        let added = changes.upserts.filter { !before.contains(id: $0.id) }.map { "#\($0.id)" }
        let changed = changes.upserts.filter { before.contains(id: $0.id) }.map { "#\($0.id)" }
        let deleted = changes.deletions.map { "#\($0)" }
        let parts = [
            added.isEmpty ? nil : "added " + added.joined(separator: ", "),
            changed.isEmpty ? nil : "changed " + changed.joined(separator: ", "),
            deleted.isEmpty ? nil : "deleted " + deleted.joined(separator: ", "),
        ].compactMap { $0 }
        guard !parts.isEmpty else { return nil }
        return "another session " + parts.joined(separator: "; ") + " ('list' shows the board)"
    }
}
