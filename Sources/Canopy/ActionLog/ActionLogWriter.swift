#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Turns entries into JSON Lines and hands them to the recorder's output: a file or a closure.
///
/// Used only on the ``ActionRecorder``'s serial queue (and in its `deinit`, when nothing else holds it).
final class ActionLogWriter: @unchecked Sendable {
    // Safety: every member is used on the recorder's serial queue only, or from the recorder's deinit
    // when no other reference exists, so the encoder and the file descriptor are never used by two
    // threads at once.
    private let name: String
    private let output: @Sendable (Data) throws -> Void
    private let finish: @Sendable () -> Void
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys  // the same log for the same actions, byte for byte
        return encoder
    }()
    private var isClosed = false
    /// Set by the first failed write: a write that failed may have left part of a line, so nothing is
    /// written after it, and a reader sees that part as the log's truncated last line.
    private var writeFailed = false

    init(name: String, write: @escaping @Sendable (Data) throws -> Void, close: @escaping @Sendable () -> Void) {
        self.name = name
        self.output = write
        self.finish = close
    }

    /// Opens (creates or empties) the file at `file` for writing.
    convenience init(file: URL) throws(ActionLogError) {
        let path = file.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .io(path: path, reason: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        let file = FileDescriptor(descriptor)
        self.init(
            name: path,
            write: { data throws(ActionLogError) in try file.write(data, path: path) },
            close: { file.close() }
        )
    }

    deinit {
        close()
    }

    func write(header: ActionLogFormat.Header, failure: LockedValue<ActionLogError?>) {
        do {
            var line = try encoder.encode(header)
            line.append(UInt8(ascii: "\n"))
            try output(line)
        } catch {
            writeFailed = true
            keep(error, in: failure)
        }
    }

    /// Encodes `batch` into lines, in order, and hands them to the output in one call.
    ///
    /// Only the action goes through `JSONEncoder`; the envelope around it (the same keys, sorted, as
    /// ``ActionLogFormat/Entry``) is written directly, which halves the cost of a line.
    func write(_ batch: [ActionLogBuffer.Pending], failure: LockedValue<ActionLogError?>) {
        guard !isClosed, !writeFailed else { return }
        var chunk = Data()
        for entry in batch {
            do {
                let action = try encoder.encode(entry.action)
                chunk.append(contentsOf: Self.actionKey)
                chunk.append(action)
                chunk.append(contentsOf: Self.storeKey)
                chunk.append(contentsOf: entry.store.description.utf8)  // `root` and digits: nothing to escape
                chunk.append(contentsOf: Self.timeKey)
                chunk.append(contentsOf: "\(entry.time)".utf8)
                chunk.append(contentsOf: Self.lineEnd)
            } catch {
                keep(error, in: failure)
            }
        }
        do {
            try output(chunk)
        } catch {
            writeFailed = true
            keep(error, in: failure)
        }
    }

    private static let actionKey = Array(#"{"action":"#.utf8)
    private static let storeKey = Array(#","store":""#.utf8)
    private static let timeKey = Array(#"","time":"#.utf8)
    private static let lineEnd = Array("}\n".utf8)

    func close() {
        guard !isClosed else { return }
        isClosed = true
        finish()
    }

    private func keep(_ error: any Error, in failure: LockedValue<ActionLogError?>) {
        let error = error as? ActionLogError ?? .io(path: name, reason: "\(error)")
        failure.withLock { kept in
            if kept == nil { kept = error }
        }
    }
}

/// A file descriptor open for writing, closed once.
private final class FileDescriptor: @unchecked Sendable {
    // Safety: used only by the ActionLogWriter that owns it, on the recorder's serial queue.
    private var descriptor: Int32

    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ data: Data, path: String) throws(ActionLogError) {
        guard descriptor >= 0 else { throw .io(path: path, reason: "the log is closed") }
        let failure: Int32? = data.withUnsafeBytes { bytes -> Int32? in
            // Safety: `bytes` is valid for the duration of this closure; only read.
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure {
            throw .io(path: path, reason: "cannot write: \(String(cString: strerror(failure)))")
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = systemClose(descriptor)
        descriptor = -1
    }
}

// The C library's `write` and `close`, which the methods of the same names above would hide.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
