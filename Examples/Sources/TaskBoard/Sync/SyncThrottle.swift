import Canopy
import Foundation

/// At most one push or pull starts per interval, whoever asks (a command or the auto-sync timer), so
/// the remote is not called again and again: `Middleware.throttle` on the `sync` store, on the tree's
/// clock.
///
/// A request that comes too soon is blocked and nothing changes; the command that sent it learns it
/// from the dispatch outcome and says so (`SyncCommands.start`).
enum SyncThrottle {
    /// Whether `action` asks for a sync to start.
    static func isRequest(_ action: AppAction) -> Bool {
        if case .sync(.start) = action { true } else { false }
    }

    /// The middleware: lets through the first request, then none until `interval` seconds after it.
    static func middleware(interval: TimeInterval) -> Middleware<SyncStoreState, AppAction> {
        .throttle(isRequest, for: interval)
    }

    /// What a command says when its request was blocked.
    static func refusal(interval: TimeInterval) -> CommandFailure {
        CommandFailure(
            "a sync started less than \(DurationText.text(interval)) ago",
            hint: "syncs are at least \(DurationText.text(interval)) apart; try again in a moment"
        )
    }
}
