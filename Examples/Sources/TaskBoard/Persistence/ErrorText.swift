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
        case DecodingError.dataCorrupted(let context):
            context.codingPath.isEmpty
                ? "not valid JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context):
            "\(path(context.codingPath + [key])) is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(path(context.codingPath)) has the wrong type"
        case let error as CocoaError:
            if let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
                String(cString: strerror(underlying.code.rawValue))
            } else {
                error.localizedDescription
            }
        case let error as POSIXError:
            String(cString: strerror(error.code.rawValue))
        default:
            "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        let parts = keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
        let joined = parts.joined()
        return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
    }
}
