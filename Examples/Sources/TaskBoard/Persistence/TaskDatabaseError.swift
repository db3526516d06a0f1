import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why ``TaskDatabase`` could not open, read or write `tasks.sqlite`, with the path and the cause in
/// words for the user.
struct TaskDatabaseError: Error, Equatable, CustomStringConvertible {
    enum Kind: Equatable, Sendable {
        /// Another process held the write lock for longer than the busy timeout.
        case locked
        /// The file, its folder or the file system does not allow writing.
        case readOnly
        /// There is no room left for the write: the disk, or a page limit, is full.
        case diskFull
        /// The file is not an SQLite database, or fails its integrity check.
        case corrupt
        /// The database was written by a newer TaskBoard, with migrations this one does not know.
        case newerSchema
        /// Anything else: an I/O error, a file that cannot be opened.
        case other
    }

    let kind: Kind
    /// The database file.
    let path: String
    /// The cause, in words, starting in lower case.
    let cause: String

    var description: String { "\(path): \(cause)" }

    /// Whether retrying cannot help: permissions and newer schemas stay as they are until someone
    /// changes them. A lock, a full disk or an I/O error may pass.
    var isPermanent: Bool {
        [.readOnly, .corrupt, .newerSchema].contains(kind)
    }

    /// Classifies what GRDB or the file system threw while working on `path`.
    init(_ error: any Error, path: String, busyTimeout: TimeInterval? = nil) {
        if let error = error as? TaskDatabaseError {
            self = error
            return
        }
        self.path = path
        guard let error = error as? DatabaseError else {
            kind = ErrorText.isPermanent(error) ? .readOnly : .other
            cause = ErrorText.describe(error)
            return
        }
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            kind = .locked
            let waited = busyTimeout.map { " (waited \(Self.text($0)))" } ?? ""
            cause = "the database is locked by another process\(waited)"
        case .SQLITE_READONLY:
            kind = .readOnly
            cause = "the database is read-only (\(Self.detail(error)))"
        case .SQLITE_PERM, .SQLITE_AUTH:
            kind = .readOnly
            cause = ErrorText.posix(EACCES)
        case .SQLITE_FULL:
            kind = .diskFull
            cause = ErrorText.posix(ENOSPC)
        case .SQLITE_NOTADB:
            kind = .corrupt
            cause = "not an SQLite database"
        case .SQLITE_CORRUPT:
            kind = .corrupt
            cause = "the database is corrupt (\(Self.detail(error)))"
        case .SQLITE_CANTOPEN:
            kind = .other
            cause = "cannot open the database (\(Self.detail(error)))"
        default:
            kind = .other
            cause = Self.detail(error)
        }
    }

    init(kind: Kind, path: String, cause: String) {
        self.kind = kind
        self.path = path
        self.cause = cause
    }

    /// `50 ms` below a second, `5s` from there on.
    private static func text(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : DurationText.text(seconds)
    }

    /// SQLite's message, or its result code in words when there is none.
    private static func detail(_ error: DatabaseError) -> String {
        error.message ?? "\(error.resultCode)"
    }
}
