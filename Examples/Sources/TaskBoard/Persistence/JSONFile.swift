import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON document on disk that is replaced atomically and never overwritten when it cannot be read.
///
/// - ``save(_:)`` writes a temporary file in the same folder, flushes it, then renames it over the
///   document, so a reader (or a crash) sees the old document or the new one, never half of one.
/// - ``load(now:validate:)`` moves a document it cannot read or decode aside, to
///   `<name>.corrupt-<timestamp>`, instead of letting the next save overwrite it.
struct JSONFile<Value: Codable & Sendable>: Sendable {
    let url: URL

    enum LoadResult: Sendable {
        /// There is no document yet.
        case missing
        case loaded(Value)
        /// The document could not be used, and now lives at `movedTo`.
        case movedAside(movedTo: URL, reason: String)
    }

    /// The document could not be used and could not be moved aside either; nothing may overwrite it.
    struct LoadError: Error, CustomStringConvertible {
        let url: URL
        let reason: String
        let moveError: String

        var description: String {
            "\(url.path) \(reason), and it could not be moved aside (\(moveError)); "
                + "fix or remove it, then try again"
        }
    }

    /// Reads the document. `validate` may reject a document that decodes but makes no sense.
    func load(
        now: Date,
        validate: (Value) throws -> Value = { $0 }
    ) throws(LoadError) -> LoadResult {
        guard FileManager.default.fileExists(atPath: url.path) else { return .missing }
        let reason: String
        do {
            let data = try Data(contentsOf: url)
            do {
                let value = try JSONDecoder().decode(Value.self, from: data)
                return .loaded(try validate(value))
            } catch let error as DecodingError {
                reason = "could not be decoded (\(ErrorText.describe(error)))"
            } catch {
                reason = "could not be decoded (\(error))"
            }
        } catch {
            reason = "could not be read (\(ErrorText.describe(error)))"
        }
        do {
            return .movedAside(movedTo: try moveAside(now: now), reason: reason)
        } catch {
            throw LoadError(url: url, reason: reason, moveError: ErrorText.describe(error))
        }
    }

    /// Replaces the document with `value`: write a temporary file, flush it, rename it over the document.
    func save(_ value: Value) throws {
        let data = try Self.encode(value)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The rename below would replace a document its owner made read-only: refuse instead.
        if DataDirectory.isReadOnlyFile(url.path) { throw DataDirectory.ReadOnlyFile() }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tmp-\(UUID().uuidString)")
        // `open` rather than `FileManager.createFile`, whose failure carries no cause.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        close(descriptor)
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            guard rename(temporary.path, url.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// `value` as the document holds it: pretty-printed JSON with sorted keys, and a final newline.
    static func encode(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        var data = try encoder.encode(value)
        data.append(0x0A)
        return data
    }

    /// Reads and decodes the document at `url`, leaving it where it is whatever happens; throws the
    /// cause in words (for files the user names, such as `import <file>`).
    static func read(_ url: URL, validate: (Value) throws -> Value = { $0 }) throws(JSONFileProblem) -> Value {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw JSONFileProblem(description: "could not be read (\(ErrorText.describe(error)))")
        }
        do {
            return try validate(try JSONDecoder().decode(Value.self, from: data))
        } catch {
            throw JSONFileProblem(description: "could not be decoded (\(ErrorText.describe(error)))")
        }
    }

    /// Renames the document to `<name>.corrupt-<UTC timestamp>` (with `-2`, `-3`… if that is taken).
    private func moveAside(now: Date) throws -> URL {
        try AsideFile.move(url, label: "corrupt", now: now)
    }

    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func pad(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        return "\(parts.year ?? 1970)\(pad(parts.month))\(pad(parts.day))T"
            + "\(pad(parts.hour))\(pad(parts.minute))\(pad(parts.second))Z"
    }
}

/// Why a JSON document could not be read, in words.
struct JSONFileProblem: Error, CustomStringConvertible {
    let description: String
}
