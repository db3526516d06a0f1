/// What went wrong while recording or replaying an action log, with the line it concerns.
///
/// Lines are counted from 1; line 1 is the header. Each case describes itself in one sentence that
/// names the line and the cause, ready for a command-line message:
///
/// ```swift
/// do {
///     let log = try ActionLog<BoardAction>(contentsOf: url, appVersion: "2.1")
///     _ = try await log.replay(into: [ReplayTarget(board)])
/// } catch {
///     print("\(url.path): \(error)")  // board.log: line 12: the action does not decode: …
/// }
/// ```
public enum ActionLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened, read or written.
    case io(path: String, reason: String)

    /// The first line is not the header of a Canopy action log.
    case notAnActionLog(reason: String)

    /// The log was written in a format version this build cannot read.
    case unsupportedFormat(found: Int, supported: Int)

    /// The log was recorded by another version of the app than the player expects.
    case appVersionMismatch(found: String, expected: String)

    /// A line is not a log entry (broken JSON, or a missing field), and it is not the last line.
    case malformedLine(line: Int, reason: String)

    /// The last line stops in the middle: the recording ended abruptly (a crash). The lines before it
    /// are good; ``ActionLog`` keeps them and reports this as ``ActionLog/truncation``.
    case truncatedLine(line: Int)

    /// The entry is well formed but its action no longer decodes into the app's action type.
    case undecodableAction(line: Int, reason: String)

    /// The entry names a store the replayed tree does not have (or that was not given to the player).
    case unknownStore(line: Int, store: StoreID)

    /// The line the error is about, when it is about one.
    public var line: Int? {
        switch self {
        case .io, .unsupportedFormat, .appVersionMismatch: nil
        case .notAnActionLog: 1
        case .malformedLine(let line, _), .truncatedLine(let line), .undecodableAction(let line, _),
            .unknownStore(let line, _):
            line
        }
    }

    /// One sentence naming the line (when there is one) and the cause.
    public var description: String {
        switch self {
        case .io(let path, let reason):
            "\(path): \(reason)"
        case .notAnActionLog(let reason):
            "line 1: not a Canopy action log (\(reason))"
        case .unsupportedFormat(let found, let supported):
            "line 1: action log format \(found) is not supported (this build reads format \(supported))"
        case .appVersionMismatch(let found, let expected):
            "line 1: the log was recorded by app version \"\(found)\", not \"\(expected)\""
        case .malformedLine(let line, let reason):
            "line \(line): not an action log entry (\(reason))"
        case .truncatedLine(let line):
            "line \(line): the line is cut short (the recording stopped while writing it); "
                + "the lines before it were kept"
        case .undecodableAction(let line, let reason):
            "line \(line): the action does not decode with this version of the app (\(reason))"
        case .unknownStore(let line, let store):
            "line \(line): the action was sent to store \(store), which the replayed tree does not have"
        }
    }
}
