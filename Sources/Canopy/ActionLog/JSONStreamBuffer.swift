#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a ``JSONStreamWriter`` has written and where it is: the bytes, and the values and containers
/// still open. A value, changed `inout` by whoever holds it, so the compiler proves each access
/// exclusive; it never calls a value's `encode(to:)`, which the writer does between its accesses.
struct JSONStreamBuffer {
    /// The JSON written so far. The caller may append to it and empty it between values.
    var bytes: [UInt8] = []

    /// The values being encoded, outermost first: each `encode(to:)` in progress, and the nested
    /// containers opened in them and not yet finished.
    private var frames: [Frame] = []
    /// The keys written into the open objects, so that a key written twice into one object is caught
    /// (`JSONEncoder` keeps the last value, `JSONDecoder` reads the first). Each frame owns the keys
    /// from its `keysStart` on.
    private var keys: [String] = []
    /// Where each key of ``keys`` starts in ``bytes``: the start of its member, after the separator.
    private var keyOffsets: [Int] = []
    /// Each frame's unique number, so that a container of a finished frame is recognised.
    private var nextGeneration: UInt64 = 0
    /// Set when the value used its containers out of order or an error was thrown inside it: the
    /// bytes written since the top-level value began are not to be trusted.
    private(set) var isSpoiled = false

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

        /// A position no container can write to, for a container asked for after the output was spoiled.
        static var nowhere: Position {
            Position(depth: Int.max, generation: 0)
        }
    }

    // MARK: The top-level value

    /// Starts a top-level value: its frame, and where its bytes start.
    mutating func beginTopLevel() -> (start: Int, position: Position) {
        isSpoiled = false
        return (bytes.count, push(.empty, step: .none))
    }

    /// Finishes the top-level value; returns `false` when it wrote nothing, which `JSONEncoder` refuses.
    ///
    /// - Throws: ``JSONStreamWriter/NeedsFoundation`` when the output was spoiled.
    mutating func endTopLevel() throws -> Bool {
        guard !isSpoiled else { throw JSONStreamWriter.NeedsFoundation() }
        finishFrames(above: 0)
        guard frames[0].content != .empty else { return false }
        finishTop()
        return true
    }

    /// Drops what the top-level value that began at `start` wrote; returns the error to throw for it:
    /// ``JSONStreamWriter/NeedsFoundation`` when the output was spoiled, `error` otherwise.
    mutating func abandonTopLevel(from start: Int, after error: any Error) -> any Error {
        bytes.removeSubrange(start...)
        frames.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        keyOffsets.removeAll(keepingCapacity: true)
        return isSpoiled ? JSONStreamWriter.NeedsFoundation() : error
    }

    // MARK: Frames

    /// Opens a frame for a value that its `encode(to:)` is to write.
    mutating func push(_ content: Frame.Content, step: Step) -> Position {
        nextGeneration &+= 1
        frames.append(Frame(generation: nextGeneration, content: content, keysStart: keys.count, step: step))
        return Position(depth: frames.count - 1, generation: nextGeneration)
    }

    /// Finishes the frame on top: closes its object or array, or writes `{}` when it holds nothing.
    private mutating func finishTop() {
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
    private mutating func sortMembers(from first: Int) {
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

    private mutating func finishFrames(above depth: Int) {
        while frames.count - 1 > depth {
            finishTop()
        }
    }

    /// Whether `position` names an unfinished frame; finishes the frames above it, which the caller is
    /// done with. Spoils the output when it does not.
    private mutating func enter(_ position: Position) -> Bool {
        guard !isSpoiled, position.depth < frames.count, frames[position.depth].generation == position.generation
        else {
            isSpoiled = true
            return false
        }
        finishFrames(above: position.depth)
        return true
    }

    /// After the `encode(to:)` of a value in the frame at `position` returned: finishes that frame.
    ///
    /// - Throws: ``JSONStreamWriter/NeedsFoundation`` when the frame was finished already.
    mutating func endNested(at position: Position) throws {
        guard enter(position) else { throw JSONStreamWriter.NeedsFoundation() }
        finishTop()
    }

    /// Marks the output as not to be trusted; the writer's `append(_:)` will throw
    /// ``JSONStreamWriter/NeedsFoundation``.
    mutating func spoil() {
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
    mutating func open(_ content: Frame.Content, at position: Position) -> Bool {
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
    mutating func beginSingle(at position: Position) throws {
        guard enter(position), frames[position.depth].content == .empty else {
            isSpoiled = true
            throw JSONStreamWriter.NeedsFoundation()
        }
        frames[position.depth].content = .single
    }

    /// Before a value is written into the frame's object: writes the separator and the key.
    mutating func beginKey(_ key: some CodingKey, at position: Position) throws {
        guard enter(position), frames[position.depth].content == .object else {
            isSpoiled = true
            throw JSONStreamWriter.NeedsFoundation()
        }
        let name = key.stringValue
        let frame = frames[position.depth]
        for index in frame.keysStart..<keys.count where keys[index] == name {
            isSpoiled = true
            throw JSONStreamWriter.NeedsFoundation()
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
    mutating func beginElement(at position: Position) throws -> Int {
        guard enter(position), frames[position.depth].content == .array else {
            isSpoiled = true
            throw JSONStreamWriter.NeedsFoundation()
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
    mutating func openNested(_ content: Frame.Content, step: Step) -> Position {
        bytes.append(UInt8(ascii: content == .array ? "[" : "{"))
        return push(content, step: step)
    }

    /// After a key or separator: a frame for an encoder that writes there (`superEncoder`).
    mutating func openEncoder(step: Step) -> Position {
        push(.empty, step: step)
    }

    // MARK: Values

    /// ``writeDirectly(_:)`` for the top-level value, which then fills its frame.
    mutating func writeTopLevelDirectly<Value: Encodable>(_ value: Value) throws -> Bool {
        guard try writeDirectly(value) else { return false }
        frames[0].content = .single
        return true
    }

    /// Writes the values that skip their `Codable` conformance; returns whether `value` was one: the
    /// common scalars, as their conformance would write them but without a frame and a container, and
    /// the types `JSONEncoder` treats apart.
    mutating func writeDirectly<Value: Encodable>(_ value: Value) throws -> Bool {
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
                throw JSONStreamWriter.NeedsFoundation()
            }
            bytes.append(contentsOf: decimal.description.utf8)
        } else {
            return false
        }
        return true
    }
}
