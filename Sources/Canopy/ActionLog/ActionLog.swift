#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// An action log read back: the actions an ``ActionRecorder`` wrote, decoded, in the order the tree
/// handled them, ready to ``replay(into:timing:)`` into a freshly built tree.
///
/// Reading checks the whole log before anything is replayed, and throws an ``ActionLogError`` that
/// names the line: a header from another format or app version, a line that is not an entry, an action
/// that no longer decodes. A last line cut short (the app crashed while recording) is not an error: the
/// lines before it are kept and ``truncation`` says which line was dropped.
///
/// ```swift
/// let log = try ActionLog<BoardAction>(contentsOf: logURL, appVersion: "2.1")
/// if let truncation = log.truncation { print("warning: \(truncation)") }
/// let board = makeBoard(effects: .off)  // the same tree as the app's, its effects off
/// let report = try await log.replay(into: [ReplayTarget(board.root), ReplayTarget(board.tasks)])
/// print("replayed \(report.replayed) actions")
/// ```
public struct ActionLog<Action: Decodable & Sendable>: Sendable {
    /// One recorded action.
    public struct Entry: Sendable {
        /// The line of the log it was read from (the header is line 1).
        public let line: Int
        /// The store the action was sent to.
        public let store: StoreID
        /// The time on the recording tree's clock when the action went through the recorder.
        public let time: Double
        /// The action.
        public let action: Action
    }

    /// The app version written in the log's header.
    public let appVersion: String

    /// The recorded actions, in the order the tree handled them.
    public let entries: [Entry]

    /// ``ActionLogError/truncatedLine(line:)`` when the last line was cut short and left out; `nil`
    /// when the log ends cleanly.
    public let truncation: ActionLogError?

    /// Reads a log from its bytes.
    ///
    /// ```swift
    /// let log = try ActionLog<CounterAction>(data: recorded, appVersion: "1.0")
    /// ```
    ///
    /// - Parameters:
    ///   - data: The log, as an ``ActionRecorder`` wrote it.
    ///   - expectedAppVersion: When given, a log whose header names another app version is refused.
    /// - Throws: An ``ActionLogError`` naming the first line that cannot be used.
    public init(data: Data, appVersion expectedAppVersion: String? = nil) throws(ActionLogError) {
        let decoder = JSONDecoder()
        var lines = Self.lines(of: data)
        guard !lines.isEmpty, !lines[0].bytes.isEmpty else { throw .notAnActionLog(reason: "the log is empty") }
        let first = lines.removeFirst()
        let header: ActionLogFormat.Header
        do {
            header = try decoder.decode(ActionLogFormat.Header.self, from: first.bytes)
        } catch {
            throw .notAnActionLog(reason: Self.describe(error))
        }
        guard header.canopyActionLog == ActionLogFormat.version else {
            throw .unsupportedFormat(found: header.canopyActionLog, supported: ActionLogFormat.version)
        }
        if let expectedAppVersion, header.app != expectedAppVersion {
            throw .appVersionMismatch(found: header.app, expected: expectedAppVersion)
        }
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count)
        var truncation: ActionLogError?
        for (offset, line) in lines.enumerated() {
            let number = offset + 2
            do {
                let entry = try decoder.decode(ActionLogFormat.Entry<Action>.self, from: line.bytes)
                guard let store = StoreID(text: entry.store) else {
                    throw ActionLogError.malformedLine(line: number, reason: "\"\(entry.store)\" is not a store ID")
                }
                entries.append(Entry(line: number, store: store, time: entry.time, action: entry.action))
            } catch let error as ActionLogError {
                throw error
            } catch {
                if !line.isTerminated && offset == lines.count - 1 {
                    truncation = .truncatedLine(line: number)
                    break
                }
                // A line whose envelope reads is an action that no longer decodes; otherwise the line
                // itself is broken.
                if (try? decoder.decode(ActionLogFormat.EntryFields.self, from: line.bytes)) != nil {
                    throw .undecodableAction(line: number, reason: Self.describe(error))
                }
                throw .malformedLine(line: number, reason: Self.describe(error))
            }
        }
        self.appVersion = header.app
        self.entries = entries
        self.truncation = truncation
    }

    /// Reads the log in the file at `url`.
    ///
    /// ```swift
    /// let log = try ActionLog<BoardAction>(contentsOf: URL(filePath: "board.log"), appVersion: "2.1")
    /// ```
    ///
    /// - Parameters:
    ///   - url: The log file.
    ///   - expectedAppVersion: When given, a log whose header names another app version is refused.
    /// - Throws: ``ActionLogError/io(path:reason:)`` when the file cannot be read, or the error of
    ///   ``init(data:appVersion:)``.
    public init(contentsOf url: URL, appVersion expectedAppVersion: String? = nil) throws(ActionLogError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .io(path: url.path, reason: "cannot read the file: \(error)")
        }
        try self.init(data: data, appVersion: expectedAppVersion)
    }

    /// The log's lines, without their newlines; the last one may lack its newline.
    private static func lines(of data: Data) -> [(bytes: Data, isTerminated: Bool)] {
        var lines: [(bytes: Data, isTerminated: Bool)] = []
        var start = data.startIndex
        while start < data.endIndex {
            if let newline = data[start...].firstIndex(of: UInt8(ascii: "\n")) {
                lines.append((Data(data[start..<newline]), true))
                start = newline + 1
            } else {
                lines.append((Data(data[start...]), false))
                start = data.endIndex
            }
        }
        return lines
    }

    /// A short description of a decoding error: where, and what.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return path.isEmpty ? "" : " at \(path.joined(separator: "."))"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "no \"\(key.stringValue)\"\(at(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type)\(at(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "missing \(type)\(at(context))"
        case .dataCorrupted(let context):
            return "\(context.debugDescription)\(at(context))"
        @unknown default:
            return "\(error)"
        }
    }
}
