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
// Safety: Sendable by hand: confined to the recorder's serial queue (note below).
final class ActionLogWriter<Action: Encodable & Sendable>: @unchecked Sendable {
    // Safety: every member is used on the recorder's serial queue only, or from the recorder's deinit
    // when no other reference exists, so the encoder and the file descriptor are never used by two
    // threads at once.
    private let name: String
    private let output: @Sendable (Data) throws -> Void
    private let finish: @Sendable () -> Void
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        // Sorted keys, as the stream writer's: the same log for the same actions, byte for byte (an
        // action goes through this encoder only when the stream writer refuses it, every time).
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
    /// Writes the lines of a batch; its buffer is kept from one batch to the next.
    private let json = JSONStreamWriter()
    /// The chunks of the batch being written, swapped with the recorder's list so that both keep their
    /// capacity.
    private var batch: [ActionLogBuffer<Action>.Chunk] = []
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

    /// Writes what `buffer` holds, batch after batch, until it is empty; actions recorded meanwhile
    /// join the next batch instead of waking the queue again.
    func drain(_ buffer: SpinLockedValue<ActionLogBuffer<Action>>, failure: LockedValue<ActionLogError?>) {
        while buffer.withLock({ $0.take(into: &batch) }) {
            write(batch, failure: failure)
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Encodes `batch` into lines, in order, and hands them to the output in one call.
    ///
    /// The envelope around the action (the same keys, sorted, as ``ActionLogFormat/Entry``) is written
    /// directly and the action by a ``JSONStreamWriter``, into a buffer kept from batch to batch; an
    /// action that the stream writer cannot take goes through `JSONEncoder`.
    private func write(_ batch: [ActionLogBuffer<Action>.Chunk], failure: LockedValue<ActionLogError?>) {
        guard !isClosed, !writeFailed else { return }
        if json.bytes.capacity > Self.keptCapacity {
            json.bytes = []  // a burst made it large: let it go
        } else {
            json.bytes.removeAll(keepingCapacity: true)
        }
        // The entries are read in place: copying each one out of its chunk costs a value-witness call
        // and a retain of its store's path, here in unspecialised code.
        for chunk in batch {
            // Safety: the chunk's first `count` entries are initialised, and the chunk, held by `batch`,
            // is only read here (see `ActionLogBuffer.Chunk`).
            for index in 0..<chunk.count {
                writeLine(chunk.base + index, failure: failure)
            }
        }
        guard !json.bytes.isEmpty else { return }
        do {
            try output(Data(json.bytes))
        } catch {
            writeFailed = true
            keep(error, in: failure)
        }
    }

    /// Writes one entry's line; on an error, keeps it and leaves the line out.
    // Safety: `entry` is an initialised entry of a chunk of `batch`, which this writer holds for the call.
    @inline(__always)
    private func writeLine(_ entry: UnsafePointer<ActionLogBuffer<Action>.Entry>, failure: LockedValue<ActionLogError?>)
    {
        // Safety: the caller's pointer is valid for the call and only read; the fields are read in
        // place (`pointee.…`), not copied out as a whole.
        let lineStart = json.bytes.count
        do {
            json.writeRaw(#"{"action":"#)
            do {
                try json.append(entry.pointee.action)
            } catch {
                // Whatever the stream writer refused, `JSONEncoder` decides: it writes the action or
                // throws the error the log keeps.
                json.bytes.append(contentsOf: try encoder.encode(entry.pointee.action))
            }
            if entry.pointee.store.path.isEmpty {
                json.writeRaw(#","store":"root","time":"#)
            } else {
                json.writeRaw(#","store":"root"#)
                for index in entry.pointee.store.path {  // the rest of `StoreID.description`: nothing to escape
                    json.bytes.append(UInt8(ascii: "/"))
                    json.writeInteger(index)
                }
                json.writeRaw(#"","time":"#)
            }
            guard entry.pointee.time.isFinite else {
                throw ActionLogError.io(path: name, reason: "the tree's clock read \(entry.pointee.time), not a time")
            }
            try json.writeFloat(entry.pointee.time)
            json.writeRaw("}\n")
        } catch {
            json.bytes.removeSubrange(lineStart...)
            keep(error, in: failure)
        }
    }

    /// The most bytes the batch buffer keeps between batches.
    private static var keptCapacity: Int { 1 << 20 }

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
// Safety: Sendable by hand: only the owning writer's closures use it, on the recorder's queue (below).
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
// Safety: `bytes` is passed straight to `write`, which reads `count` bytes of it during the call.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
