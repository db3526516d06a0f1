import Logging
import Synchronization

/// A swift-log handler that keeps what it is given, for tests that check what was logged and how loud.
struct CapturingLogHandler: LogHandler {
    final class Entries: Sendable {
        private let storage = Mutex<[(level: Logger.Level, message: String)]>([])

        var all: [(level: Logger.Level, message: String)] { storage.withLock { $0 } }

        func append(_ level: Logger.Level, _ message: String) {
            storage.withLock { $0.append((level, message)) }
        }
    }

    let entries: Entries
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        entries.append(event.level, "\(event.message)")
    }

    /// A logger at `level` and the entries it captures.
    static func logger(level: Logger.Level) -> (Logger, Entries) {
        let entries = Entries()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(entries: entries, logLevel: level) }
        return (logger, entries)
    }
}
