import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lines typed at the prompt, one per line in `history` in the data folder, so that ↑ finds them in
/// the next session too. Each line is appended as soon as it is entered; a file longer than twice the
/// limit is cut back to the limit when it is read.
struct HistoryFile: Sendable {
    let url: URL
    var limit = 500

    /// The last `limit` lines, oldest first; none when there is no file or it cannot be read.
    func load() -> [String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        let lines = text.split(separator: "\n").map(String.init)
        if lines.count > limit * 2 {
            try? (lines.suffix(limit).joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        return Array(lines.suffix(limit))
    }

    /// Appends `line`; throws a `POSIXError` when it cannot.
    func append(_ line: String) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
