import Foundation

/// What the Sync feature does.
enum SyncAction: Codable, Sendable {
    /// Starts a push or a pull, unless one is running.
    case start(SyncState.Direction)
    /// Cancels the running sync, including a retry that is waiting.
    case cancel
    /// The sync effect began attempt `attempt` (0 for the first).
    case attemptStarted(attempt: Int)
    /// An attempt failed at `at`; the reducer retries or gives up.
    case attemptFailed(reason: String, at: Date)
    case pushed(taskCount: Int, remoteRevision: Int)
    /// The remote board, or `nil` when nothing was ever pushed. The Tasks reducer replaces the local
    /// board with it as the action travels up.
    case pulled(RemoteService.Stored?)
    /// Turns periodic pushing on or off.
    case setAutoSync(Bool)
    /// The auto-sync timer fired.
    case autoSyncTick
}
