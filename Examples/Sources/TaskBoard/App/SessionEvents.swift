import Synchronization

/// What a ``Session`` remembers between commands about what it has already told the user, so that
/// each event is reported once: a background sync the user is waiting to hear about, the save
/// failures already shown, and whether the run is ending (its own messages then say it all).
final class SessionEvents: Sendable {
    private struct State {
        var followsBackgroundSync = false
        var reportedSaveFailures = 0
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

    /// Returns whether save failure number `count` is new, and marks every failure up to it as reported.
    func takeSaveFailure(_ count: Int) -> Bool {
        state.withLock { state in
            defer { state.reportedSaveFailures = max(state.reportedSaveFailures, count) }
            return count > state.reportedSaveFailures && !state.isFinishing && !state.awaitingSave
        }
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
