#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes `Encodable` values as JSON straight into a byte buffer, for the action log's writer: no
/// intermediate tree of values and no Foundation formatting, about a fifth of `JSONEncoder`'s cost.
///
/// The output decodes with `JSONDecoder` (default strategies) to the value `JSONEncoder` (default
/// strategies) would have produced: `Data` as base64, `URL` as its absolute string, `Decimal` as a
/// number, `Date` through its own `Codable` conformance, non-finite floats refused with the same
/// `EncodingError`. The keys of each object are sorted by their UTF-8 bytes, so equal values give equal
/// bytes: a dictionary's keys come in an order that depends on how it was built.
///
/// Values stream out as they are encoded, so the containers of one value must be used in the order
/// a stack would allow: a container is finished once its parent, or anything above, writes again.
/// Synthesised conformances always do; when a hand-written one does not (it writes to a container
/// after its parent moved on, fills a `superEncoder` late, encodes a key twice into one object, or
/// a value throws an error that the code around it catches), ``append(_:)`` throws
/// ``NeedsFoundation`` and leaves the buffer as it was, and the caller encodes that value with
/// `JSONEncoder` instead.
///
/// ```swift
/// let json = JSONStreamWriter()
/// try json.append(CounterAction.add(3))  // json.bytes: {"add":{"_0":3}}
/// ```
///
/// The writer is the one reference the encoders and containers of a value share; what they write
/// goes into a ``JSONStreamBuffer``, a value the writer lends to one ``modify(_:)`` at a time. Not
/// thread-safe: one writer per thread (the action log uses it on the recorder's queue only).
final class JSONStreamWriter {
    /// Thrown by ``append(_:)`` when the value used its containers in a way this writer does not
    /// stream; `JSONEncoder` encodes it correctly.
    struct NeedsFoundation: Error {}

    /// The buffer; `nil` only while ``modify(_:)`` lends it out. The field is reached only by the two
    /// swaps in `modify`, which call nothing, so the compiler proves the accesses exclusive without a
    /// check at run time; what runs on the buffer runs on the value moved out.
    private var lent: JSONStreamBuffer? = JSONStreamBuffer()

    /// The JSON written so far. The caller may append to it and empty it between values.
    var bytes: [UInt8] {
        get { modify { $0.bytes } }
        set { modify { $0.bytes = newValue } }
    }

    /// Runs `body` on the buffer. `body` must not call back into this writer: a value's `encode(to:)`
    /// runs between two calls, never inside one.
    @inline(__always)
    func modify<Result>(_ body: (inout JSONStreamBuffer) throws -> Result) rethrows -> Result {
        var buffer: JSONStreamBuffer? = nil
        swap(&buffer, &lent)
        defer { swap(&buffer, &lent) }
        // A nested call finds the buffer lent out: a bug in this writer, which must stop here.
        return try body(&buffer!)
    }

    /// Appends the JSON for `value` to ``bytes``.
    ///
    /// - Throws: What `value`'s `encode(to:)` throws, the `EncodingError`s of `JSONEncoder` (a
    ///   non-finite float, a value that encodes nothing), or ``NeedsFoundation``; ``bytes`` is then as it
    ///   was before the call.
    func append<Value: Encodable>(_ value: Value) throws {
        // Every call leaves the buffer's frames and keys empty: a value written pops all it pushed, a
        // refused one empties them.
        let (start, position) = modify { $0.beginTopLevel() }
        do {
            if try !modify({ try $0.writeTopLevelDirectly(value) }) {
                try value.encode(to: JSONStreamEncoder(writer: self, position: position))
            }
            guard try modify({ try $0.endTopLevel() }) else {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: [],
                        debugDescription: "Top-level \(Value.self) did not encode any values."
                    )
                )
            }
        } catch {
            throw modify { $0.abandonTopLevel(from: start, after: error) }
        }
    }

    /// After a key, separator or `beginSingle(at:)`: writes `value`, in a frame of its own unless it is
    /// one of the types written directly.
    func write<Value: Encodable>(_ value: Value, step: JSONStreamBuffer.Step) throws {
        let pushed = try modify { buffer -> JSONStreamBuffer.Position? in
            try buffer.writeDirectly(value) ? nil : buffer.push(.empty, step: step)
        }
        guard let position = pushed else { return }
        do {
            try value.encode(to: JSONStreamEncoder(writer: self, position: position))
        } catch {
            // Code around this call may catch the error and go on; what `JSONEncoder` keeps then is
            // its business.
            modify { $0.spoil() }
            throw error
        }
        try modify { try $0.endNested(at: position) }
    }

    /// Writes a member of the object at `position`: its key, then what `body` writes.
    @inline(__always)
    func writeMember(
        _ key: some CodingKey,
        at position: JSONStreamBuffer.Position,
        _ body: (inout JSONStreamBuffer) throws -> Void
    ) throws {
        try modify { buffer in
            try buffer.beginKey(key, at: position)
            try body(&buffer)
        }
    }

    /// Writes an element of the array at `position`: its separator, then what `body` writes.
    @inline(__always)
    func writeElement(at position: JSONStreamBuffer.Position, _ body: (inout JSONStreamBuffer) throws -> Void) throws {
        try modify { buffer in
            _ = try buffer.beginElement(at: position)
            try body(&buffer)
        }
    }

    /// Writes the single value of the frame at `position` with `body`.
    @inline(__always)
    func writeSingle(at position: JSONStreamBuffer.Position, _ body: (inout JSONStreamBuffer) throws -> Void) throws {
        try modify { buffer in
            try buffer.beginSingle(at: position)
            try body(&buffer)
        }
    }

    /// The coding path of the frame at `depth`.
    func codingPath(at depth: Int) -> [any CodingKey] {
        modify { $0.codingPath(at: depth) }
    }
}
