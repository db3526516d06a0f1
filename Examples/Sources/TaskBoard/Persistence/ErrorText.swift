import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Short, one-line descriptions of the errors files and decoders throw, for messages to the user.
enum ErrorText {
    /// A short, one-line description of a decoding or file error.
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as TaskDatabaseError:
            // Messages name the database's path themselves.
            error.cause
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "not valid JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(path(context.codingPath)) has the wrong type"
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
                posix(underlying.code.rawValue)
            } else {
                cocoa(error)
            }
        case let error as POSIXError:
            posix(error.code.rawValue)
        default:
            "\(error)"
        }
    }

    /// Whether retrying cannot help: the permissions, a read-only file system, or a path that is not a
    /// folder stay as they are until someone changes them. A full disk or an I/O error may pass.
    static func isPermanent(_ error: any Error) -> Bool {
        let permanent: Set<Int32> = [EACCES, EPERM, EROFS, ENOTDIR, EISDIR]
        switch error {
        case is DataDirectory.ReadOnlyFile:
            return true
        case let error as TaskDatabaseError:
            return error.isPermanent
        case let error as POSIXError:
            return permanent.contains(error.code.rawValue)
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
                return permanent.contains(underlying.code.rawValue)
            }
            return [.fileWriteNoPermission, .fileWriteVolumeReadOnly].contains(error.code)
        default:
            return false
        }
    }

    /// `errno` in words, starting in lower case: "permission denied", "no space left on device".
    static func posix(_ code: Int32) -> String {
        switch code {
        case ENOSPC: return "disk full"
        case EROFS: return "read-only file system"
        case ENOTDIR: return "not a directory"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// The Foundation file errors that carry no `errno`, in the same words.
    private static func cocoa(_ error: CocoaError) -> String {
        switch error.code {
        case .fileWriteNoPermission, .fileReadNoPermission: posix(EACCES)
        case .fileWriteVolumeReadOnly: posix(EROFS)
        case .fileWriteOutOfSpace: posix(ENOSPC)
        case .fileNoSuchFile, .fileReadNoSuchFile: posix(ENOENT)
        case .fileWriteFileExists: posix(EEXIST)
        default: error.localizedDescription
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let parts = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        let joined = parts.joined()
        return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
}
