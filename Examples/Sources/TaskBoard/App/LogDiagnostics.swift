import Canopy
import Logging

/// Hands the store tree's runtime events to swift-log: Canopy logs nothing itself, the app decides
/// where its events go and how loud they are.
///
/// Observers being called with a new state are `trace`, the most detailed level, as they come after
/// nearly every action; receiving, reducing and the work of effects are `debug`; a blocked action
/// (`TaskRules`, `SyncThrottle`) is `info`; a cycle is a `warning`, and an error no resolver handled an
/// `error`. The default `--log-level warning` therefore prints nothing in a normal run; `--log-level
/// debug` shows every action on standard error, with the store it reached.
struct LogDiagnostics: StoreDiagnostics {
    let logger: Logger

    /// Diagnostics that write to standard error, from `level` up.
    static func standardError(level: Logger.Level) -> LogDiagnostics {
        var logger = Logger(label: "taskboard") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return LogDiagnostics(logger: logger)
    }

    func record(_ event: StoreEvent) {
        logger.log(level: Self.level(of: event), "\(event)")
    }

    /// How loud `event` is.
    static func level(of event: StoreEvent) -> Logger.Level {
        switch event {
        case .observersNotified:
            .trace
        case .received, .reduced, .effectStarted, .effectFinished, .effectCancelled:
            .debug
        case .blocked:
            .info
        case .cycle:
            .warning
        case .error:
            .error
        }
    }
}
