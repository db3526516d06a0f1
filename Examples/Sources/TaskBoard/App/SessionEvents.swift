import Synchronization

/// What a ``Session`` remembers between commands about what it has already told the user, so that
/// each event is reported once: a background sync the user is waiting to hear about, the save
/// failures already shown, and whether the run is ending (its own messages then say it all).
final class SessionEvents: Sendable {
    private struct State {
        var followsBackgroundSync = false
        /// A save failure was reported, and the write that ends it is to be reported too.
        var reportedSaveFailure = false
        /// A command waits for a save and reports its outcome itself.
        var awaitingSave = false
        var isFinishing = false
    }

    private let state = Mutex(State())

    /// A sync was started in the background: its end is to be reported.
    func startedBackgroundSync() {
        state.withLock { $0.followsBackgroundSync = true }
    }

    /// Returns whether the end of a background sync was still to be reported, and forgets it: the
    /// caller reports it (or a command such as `wait` or `cancel` shows it itself).
    func takeBackgroundSync() -> Bool {
        state.withLock { state in
            defer { state.followsBackgroundSync = false }
            return state.followsBackgroundSync
        }
    }

    /// Returns whether the first failure of a run of failed writes is to be reported in the background:
    /// not when a command reported it already (``commandReportedSaveFailure()``; the writer may tell of
    /// it after the command), nor while a command waits for its write, nor once the run is ending.
    func takeSaveFailure() -> Bool {
        state.withLock { state in
            guard !state.reportedSaveFailure, !state.isFinishing, !state.awaitingSave else { return false }
            state.reportedSaveFailure = true
            return true
        }
    }

    /// A command told the user that its write failed.
    func commandReportedSaveFailure() {
        state.withLock { $0.reportedSaveFailure = true }
    }

    /// Returns whether a write ends a reported run of failures (to say so, unless a command waits for
    /// that write and says it itself), and forgets the failure.
    func takeSaveRecovery() -> Bool {
        state.withLock { state in
            defer { state.reportedSaveFailure = false }
            return state.reportedSaveFailure && !state.isFinishing && !state.awaitingSave
        }
    }

    /// Whether a conflict the writer met (a task deleted by another session) is to be reported in the
    /// background: not while a command waits for its write, which says it itself.
    func reportsConflictInBackground() -> Bool {
        state.withLock { !$0.awaitingSave }
    }

    /// A command waits for the save of its change (`true`) and will report a failure itself, or is done
    /// waiting (`false`).
    func awaitingSave(_ waiting: Bool) {
        state.withLock { $0.awaitingSave = waiting }
    }

    /// The run is ending: background reports stop, the end of the run reports what is left.
    func finishing() {
        state.withLock { $0.isFinishing = true }
    }
}
