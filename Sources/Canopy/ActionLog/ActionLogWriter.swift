import Synchronization

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
final class ActionLogWriter<Action: Encodable & Sendable>: Sendable {
    /// What changes from one batch to the next.
    private struct State {
        /// Writes the lines of a batch; its buffer is kept from one batch to the next.
        let json = JSONStreamWriter()
        /// The chunks of the batch being written, swapped with the recorder's list so that both keep
        /// their capacity.
        var batch: [[ActionLogBuffer<Action>.Entry]] = []
        /// An empty chunk with room reserved, handed to the buffer with each take: the last chunk of
        /// the batch before, emptied, or a new one.
        var spare: [ActionLogBuffer<Action>.Entry] = []
        var isClosed = false
        /// Set by the first failed write: a write that failed may have left part of a line, so nothing
        /// is written after it, and a reader sees that part as the log's truncated last line.
        var writeFailed = false
    }

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
    /// Taken by one thread at a time, never two at once: the recorder's serial queue, or the last
    /// owner's `deinit`, so a `Mutex` serves (no waiter the thread sanitizer would miss). The lock is
    /// held while a batch is encoded (the actions' `encode(to:)` runs under it, and cannot reach the
    /// writer), never while the output runs.
    private let state = Mutex(State())

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
            write: { data throws(ActionLogError) in try file.writeAll(data, path: path) },
            close: { file.closeOnce() }
        )
    }

    deinit {
        close()
    }

    func write(header: ActionLogFormat.Header, failure: LockedValue<ActionLogError?>) {
        let line: Data
        do {
            line = try encoder.encode(header) + [UInt8(ascii: "\n")]
        } catch {
            state.withLock { $0.writeFailed = true }
            keep(error, in: failure)
            return
        }
        send(line, failure: failure)
    }

    /// Writes what `buffer` holds, batch after batch, until it is empty; actions recorded meanwhile
    /// join the next batch instead of waking the queue again.
    func drain(_ buffer: borrowing SpinLockedValue<ActionLogBuffer<Action>>, failure: LockedValue<ActionLogError?>) {
        while true {
            // `nil` once the buffer is empty; `.some(nil)` for a batch with nothing to hand on.
            let lines: Data?? = state.withLock { state in
                if state.spare.capacity < ActionLogBuffer<Action>.chunkCapacity {
                    state.spare.reserveCapacity(ActionLogBuffer<Action>.chunkCapacity)
                }
                guard buffer.withLock({ $0.take(into: &state.batch, refill: &state.spare) }) else { return .none }
                defer {
                    if state.spare.capacity < ActionLogBuffer<Action>.chunkCapacity, var last = state.batch.popLast() {
                        last.removeAll(keepingCapacity: true)
                        state.spare = last
                    }
                    state.batch.removeAll(keepingCapacity: true)
                }
                return .some(encode(state.batch, into: &state, failure: failure))
            }
            guard let lines else { return }
            if let lines {
                send(lines, failure: failure)
            }
        }
    }

    /// Encodes `batch` into lines, in order; `nil` when there is nothing to hand to the output.
    ///
    /// The envelope around the action (the same keys, sorted, as ``ActionLogFormat/Entry``) is written
    /// directly and the action by a ``JSONStreamWriter``, into a buffer kept from batch to batch; an
    /// action that the stream writer cannot take goes through `JSONEncoder`.
    private func encode(
        _ batch: [[ActionLogBuffer<Action>.Entry]],
        into state: inout State,
        failure: LockedValue<ActionLogError?>
    ) -> Data? {
        guard !state.isClosed, !state.writeFailed else { return nil }
        let json = state.json
        json.modify { buffer in
            if buffer.bytes.capacity > Self.keptCapacity {
                buffer.bytes = []  // a burst made it large: let it go
            } else {
                buffer.bytes.removeAll(keepingCapacity: true)
            }
        }
        for chunk in batch {
            for entry in chunk {
                writeLine(entry, to: json, failure: failure)
            }
        }
        return json.modify { $0.bytes.isEmpty ? nil : Data($0.bytes) }
    }

    /// Hands `bytes` to the output, outside the lock; a failure stops the writes that would follow.
    private func send(_ bytes: Data, failure: LockedValue<ActionLogError?>) {
        do {
            try output(bytes)
        } catch {
            state.withLock { $0.writeFailed = true }
            keep(error, in: failure)
        }
    }

    /// Writes one entry's line; on an error, keeps it and leaves the line out.
    @inline(__always)
    private func writeLine(
        _ entry: ActionLogBuffer<Action>.Entry,
        to json: JSONStreamWriter,
        failure: LockedValue<ActionLogError?>
    ) {
        let lineStart = json.modify { buffer in
            let start = buffer.bytes.count
            buffer.writeRaw(#"{"action":"#)
            return start
        }
        do {
            do {
                try json.append(entry.action)
            } catch {
                // Whatever the stream writer refused, `JSONEncoder` decides: it writes the action or
                // throws the error the log keeps.
                let action = try encoder.encode(entry.action)
                json.modify { $0.bytes.append(contentsOf: action) }
            }
            guard entry.time.isFinite else {
                throw ActionLogError.io(path: name, reason: "the tree's clock read \(entry.time), not a time")
            }
            try json.modify { buffer in
                if entry.store.path.isEmpty {
                    buffer.writeRaw(#","store":"root","time":"#)
                } else {
                    buffer.writeRaw(#","store":"root"#)
                    for index in entry.store.path {  // the rest of `StoreID.description`: nothing to escape
                        buffer.bytes.append(UInt8(ascii: "/"))
                        buffer.writeInteger(index)
                    }
                    buffer.writeRaw(#"","time":"#)
                }
                try buffer.writeFloat(entry.time)
                buffer.writeRaw("}\n")
            }
        } catch {
            json.modify { $0.bytes.removeSubrange(lineStart...) }
            keep(error, in: failure)
        }
    }

    /// The most bytes the batch buffer keeps between batches.
    private static var keptCapacity: Int { 1 << 20 }

    func close() {
        let wasOpen = state.withLock { state in
            defer { state.isClosed = true }
            return !state.isClosed
        }
        if wasOpen {
            finish()
        }
    }

    private func keep(_ error: any Error, in failure: LockedValue<ActionLogError?>) {
        let error = error as? ActionLogError ?? .io(path: name, reason: "\(error)")
        failure.withLock { kept in
            if kept == nil { kept = error }
        }
    }
}

/// A file descriptor open for writing, closed once.
///
/// Only the owning writer's closures use it, on the recorder's queue; the descriptor is an atomic so
/// that the compiler can check the sharing, at no cost that counts beside a system call.
private final class FileDescriptor: Sendable {
    /// The descriptor, or -1 once closed.
    private let descriptor: Atomic<Int32>

    init(_ descriptor: Int32) {
        self.descriptor = Atomic(descriptor)
    }

    /// Writes all of `data`, in as many system calls as the system takes.
    func writeAll(_ data: Data, path: String) throws(ActionLogError) {
        let descriptor = self.descriptor.load(ordering: .relaxed)
        guard descriptor >= 0 else { throw .io(path: path, reason: "the log is closed") }
        let failure: Int32? = data.withUnsafeBytes { bytes -> Int32? in
            // Safety: `bytes` is valid for the duration of this closure; only read.
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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

    /// Closes the descriptor; later calls do nothing.
    func closeOnce() {
        let descriptor = self.descriptor.exchange(-1, ordering: .relaxed)
        guard descriptor >= 0 else { return }
        _ = close(descriptor)
    }
}
