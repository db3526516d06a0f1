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
/// Not thread-safe: one writer per thread (the action log uses it on the recorder's queue only).
final class JSONStreamWriter {
    /// Thrown by ``append(_:)`` when the value used its containers in a way this writer does not
    /// stream; `JSONEncoder` encodes it correctly.
    struct NeedsFoundation: Error {}

    // Safety: the stored `var`s are marked `@exclusivity(unchecked)`: the writer is used by one thread at a time
    // and none of its methods hands out an access that outlives it or calls user code while one is
    // open (an `encode(to:)` runs between accesses), so no two accesses overlap; the dynamic checks
    // cost more than the JSON they guard.

    /// The JSON written so far. The caller may append to it and empty it between values.
    @exclusivity(unchecked) var bytes: [UInt8] = []

    /// The values being encoded, outermost first: each `encode(to:)` in progress, and the nested
    /// containers opened in them and not yet finished.
    // Safety: one thread, and no access open across user code (the note above); so for the fields below.
    @exclusivity(unchecked) private var frames: [Frame] = []
    /// The keys written into the open objects, so that a key written twice into one object is caught
    /// (`JSONEncoder` keeps the last value, `JSONDecoder` reads the first). Each frame owns the keys
    /// from its `keysStart` on.
    // Safety: as `frames`.
    @exclusivity(unchecked) private var keys: [String] = []
    /// Where each key of ``keys`` starts in ``bytes``: the start of its member, after the separator.
    @exclusivity(unchecked) private var keyOffsets: [Int] = []
    /// Each frame's unique number, so that a container of a finished frame is recognised.
    @exclusivity(unchecked) private var nextGeneration: UInt64 = 0
    /// Set when the value used its containers out of order or an error was thrown inside it: the
    /// bytes written since ``append(_:)`` began are not to be trusted.
    // Safety: as `frames`.
    @exclusivity(unchecked) private var isSpoiled = false

    /// One value being written.
    struct Frame {
        enum Content {
            /// Nothing written yet: finished as `{}` (as `JSONEncoder` writes a value that encoded
            /// nothing).
            case empty
            /// `{` written; `count` keys so far.
            case object
            /// `[` written; `count` elements so far.
            case array
            /// A single value written, or being written by a frame above.
            case single
        }

        let generation: UInt64
        var content: Content
        var count = 0
        /// Whether the object's keys have come in sorted order so far.
        var isSorted = true
        let keysStart: Int
        /// How the frame below reached this one, for `codingPath`.
        let step: Step
    }

    /// One step of a coding path.
    enum Step {
        case none
        case key(any CodingKey)
        case index(Int)
    }

    /// Names a frame for a container or encoder that writes into it.
    struct Position {
        let depth: Int
        let generation: UInt64
    }

    /// Appends the JSON for `value` to ``bytes``.
    ///
    /// - Throws: What `value`'s `encode(to:)` throws, the `EncodingError`s of `JSONEncoder` (a
    ///   non-finite float, a value that encodes nothing), or ``NeedsFoundation``; ``bytes`` is then as it
    ///   was before the call.
    func append<Value: Encodable>(_ value: Value) throws {
        // Every call leaves `frames` and `keys` empty: a value written pops all it pushed, a refused one
        // empties them.
        let start = bytes.count
        isSpoiled = false
        do {
            let position = push(.empty, step: .none)
            if try writeDirectly(value) {
                frames[0].content = .single
            } else {
                try value.encode(to: JSONStreamEncoder(writer: self, position: position))
            }
            guard !isSpoiled else { throw NeedsFoundation() }
            finishFrames(above: 0)
            if frames[0].content == .empty {
                throw EncodingError.invalidValue(
                    value,
                    EncodingError.Context(
                        codingPath: [],
                        debugDescription: "Top-level \(Value.self) did not encode any values."
                    )
                )
            }
            finishTop()
        } catch {
            bytes.removeSubrange(start...)
            frames.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
            keyOffsets.removeAll(keepingCapacity: true)
            throw isSpoiled ? NeedsFoundation() : error
        }
    }

    // MARK: Frames

    private func push(_ content: Frame.Content, step: Step) -> Position {
        nextGeneration &+= 1
        frames.append(Frame(generation: nextGeneration, content: content, keysStart: keys.count, step: step))
        return Position(depth: frames.count - 1, generation: nextGeneration)
    }

    /// Finishes the frame on top: closes its object or array, or writes `{}` when it holds nothing.
    private func finishTop() {
        let frame = frames.removeLast()
        switch frame.content {
        case .empty:
            bytes.append(UInt8(ascii: "{"))
            bytes.append(UInt8(ascii: "}"))
        case .object:
            if !frame.isSorted {
                sortMembers(from: frame.keysStart)
            }
            bytes.append(UInt8(ascii: "}"))
            while keys.count > frame.keysStart {
                keys.removeLast()
                keyOffsets.removeLast()
            }
        case .array:
            bytes.append(UInt8(ascii: "]"))
        case .single:
            break
        }
    }

    /// Rewrites the members of the object being finished, whose keys are those of ``keys`` from `first`
    /// on, in the order of their keys' UTF-8 bytes.
    private func sortMembers(from first: Int) {
        let end = bytes.count
        let start = keyOffsets[first]
        let members = (first..<keys.count).map { index in
            // A member ends at the separator before the next one, or at the end of the object.
            (key: keys[index], bytes: keyOffsets[index]..<(index + 1 < keys.count ? keyOffsets[index + 1] - 1 : end))
        }
        var sorted: [UInt8] = []
        sorted.reserveCapacity(end - start)
        for (index, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }).enumerated() {
            if index > 0 {
                sorted.append(UInt8(ascii: ","))
            }
            sorted.append(contentsOf: bytes[member.bytes])
        }
        bytes.replaceSubrange(start..<end, with: sorted)
        // The offsets are dropped with the keys right after: nothing reads them again.
    }

    private func finishFrames(above depth: Int) {
        while frames.count - 1 > depth {
            finishTop()
        }
    }

    /// Whether `position` names an unfinished frame; finishes the frames above it, which the caller is
    /// done with. Spoils the output when it does not.
    private func enter(_ position: Position) -> Bool {
        guard !isSpoiled, position.depth < frames.count, frames[position.depth].generation == position.generation
        else {
            isSpoiled = true
            return false
        }
        finishFrames(above: position.depth)
        return true
    }

    /// Marks the output as not to be trusted; ``append(_:)`` will throw ``NeedsFoundation``.
    func spoil() {
        isSpoiled = true
    }

    /// The coding path of the frame at `depth`.
    func codingPath(at depth: Int) -> [any CodingKey] {
        guard depth < frames.count else { return [] }
        var path: [any CodingKey] = []
        for frame in frames[...depth] {
            switch frame.step {
            case .none: break
            case .key(let key): path.append(key)
            case .index(let index): path.append(JSONStreamIndexKey(index))
            }
        }
        return path
    }

    // MARK: Opening containers

    /// `encoder.container(keyedBy:)` (`.object`) or `encoder.unkeyedContainer()` (`.array`): opens the
    /// frame's object or array, or goes on with the one it holds. Spoils the output when the frame holds
    /// something else.
    func open(_ content: Frame.Content, at position: Position) -> Bool {
        guard enter(position) else { return false }
        let current = frames[position.depth].content
        if current == content { return true }
        guard current == .empty else {
            isSpoiled = true
            return false
        }
        frames[position.depth].content = content
        bytes.append(UInt8(ascii: content == .array ? "[" : "{"))
        return true
    }

    /// Before a single value is written into the frame: it must hold nothing yet.
    func beginSingle(at position: Position) throws {
        guard enter(position), frames[position.depth].content == .empty else {
            isSpoiled = true
            throw NeedsFoundation()
        }
        frames[position.depth].content = .single
    }

    /// Before a value is written into the frame's object: writes the separator and the key.
    func beginKey(_ key: some CodingKey, at position: Position) throws {
        guard enter(position), frames[position.depth].content == .object else {
            isSpoiled = true
            throw NeedsFoundation()
        }
        let name = key.stringValue
        let frame = frames[position.depth]
        for index in frame.keysStart..<keys.count where keys[index] == name {
            isSpoiled = true
            throw NeedsFoundation()
        }
        if frame.count > 0 {
            if frame.isSorted, name.utf8.lexicographicallyPrecedes(keys[keys.count - 1].utf8) {
                frames[position.depth].isSorted = false
            }
            bytes.append(UInt8(ascii: ","))
        }
        keys.append(name)
        keyOffsets.append(bytes.count)
        frames[position.depth].count += 1
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Before a value is written into the frame's array: writes the separator; returns the element's
    /// index.
    func beginElement(at position: Position) throws -> Int {
        guard enter(position), frames[position.depth].content == .array else {
            isSpoiled = true
            throw NeedsFoundation()
        }
        let index = frames[position.depth].count
        if index > 0 {
            bytes.append(UInt8(ascii: ","))
        }
        frames[position.depth].count += 1
        return index
    }

    /// The number of elements written into the frame's array.
    func count(at position: Position) -> Int {
        guard position.depth < frames.count, frames[position.depth].generation == position.generation else { return 0 }
        return frames[position.depth].count
    }

    /// After a key or separator: opens a nested object or array in a frame of its own.
    func openNested(_ content: Frame.Content, step: Step) -> Position {
        bytes.append(UInt8(ascii: content == .array ? "[" : "{"))
        return push(content, step: step)
    }

    /// After a key or separator: a frame for an encoder that writes there (`superEncoder`).
    func openEncoder(step: Step) -> Position {
        push(.empty, step: step)
    }

    /// A position no container can write to, for a container asked for after the output was spoiled.
    var nowhere: Position {
        Position(depth: Int.max, generation: 0)
    }

    // MARK: Values

    /// After a key, separator or ``beginSingle(at:)``: writes `value`, in a frame of its own unless it is
    /// one of the types written directly.
    func write<Value: Encodable>(_ value: Value, step: Step) throws {
        if try writeDirectly(value) { return }
        let position = push(.empty, step: step)
        do {
            try value.encode(to: JSONStreamEncoder(writer: self, position: position))
        } catch {
            // Code around this call may catch the error and go on; what `JSONEncoder` keeps then is
            // its business.
            isSpoiled = true
            throw error
        }
        guard enter(position) else { throw NeedsFoundation() }
        finishTop()
    }

    /// Writes the values that skip their `Codable` conformance; returns whether `value` was one: the
    /// common scalars, as their conformance would write them but without a frame and a container, and
    /// the types `JSONEncoder` treats apart.
    private func writeDirectly<Value: Encodable>(_ value: Value) throws -> Bool {
        let type = ObjectIdentifier(Value.self)
        if type == ObjectIdentifier(String.self) {
            writeString(value as! String)
        } else if type == ObjectIdentifier(Int.self) {
            writeInteger(value as! Int)
        } else if type == ObjectIdentifier(Bool.self) {
            writeBool(value as! Bool)
        } else if type == ObjectIdentifier(Double.self) {
            try writeFloat(value as! Double)
        } else if type == ObjectIdentifier(Data.self) {
            writeString((value as! Data).base64EncodedString())
        } else if type == ObjectIdentifier(URL.self) {
            writeString((value as! URL).absoluteString)
        } else if type == ObjectIdentifier(Decimal.self) {
            let decimal = value as! Decimal
            guard !decimal.isNaN else {
                isSpoiled = true
                throw NeedsFoundation()
            }
            bytes.append(contentsOf: decimal.description.utf8)
        } else {
            return false
        }
        return true
    }
}
