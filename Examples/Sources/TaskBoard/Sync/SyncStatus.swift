import Canopy
import Foundation

/// The one-line status of a sync: "push: attempt 1 of 4 failed (503 service unavailable); next retry at
/// 10:15:03 (attempt 2 of 4)".
enum SyncStatus {
    static func line(_ state: SyncState, timeZone: TimeZone = .current) -> String {
        let name = state.direction?.rawValue ?? "sync"
        let total = state.settings.maxAttempts
        guard state.run.isInProgress, let attempt = state.run.currentAttempt else {
            if let outcome = state.lastOutcome { return outcome }
            return state.autoSync ? "no sync yet; auto-sync is on" : "no sync yet"
        }
        if let retryAt = state.nextRetryAt, let failure = state.lastFailure {
            return "\(name): attempt \(failure.attempt + 1) of \(total) failed (\(failure.reason)); "
                + "next retry at \(clockTime(retryAt, timeZone: timeZone)) (attempt \(attempt + 1) of \(total))"
        }
        let verb = state.direction == .pull ? "pulling" : "pushing"
        return "\(name): \(verb)... attempt \(attempt + 1) of \(total)"
    }

    /// `HH:MM:SS` in `timeZone`.
    static func clockTime(_ date: Date, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute, .second], from: date)
        func pad(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(pad(parts.hour)):\(pad(parts.minute)):\(pad(parts.second))"
    }
}
