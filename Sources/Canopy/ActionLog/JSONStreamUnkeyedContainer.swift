/// An unkeyed container of a ``JSONStreamWriter``: writes each element into the frame's array.
struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let position: JSONStreamBuffer.Position

    var codingPath: [any CodingKey] {
        writer.codingPath(at: position.depth)
    }

    var count: Int {
        writer.modify { $0.count(at: position) }
    }

    mutating func encodeNil() throws {
        try writer.writeElement(at: position) { $0.writeNull() }
    }

    mutating func encode(_ value: Bool) throws {
        try writer.writeElement(at: position) { $0.writeBool(value) }
    }

    mutating func encode(_ value: String) throws {
        try writer.writeElement(at: position) { $0.writeString(value) }
    }

    mutating func encode(_ value: Double) throws {
        try writer.writeElement(at: position) { try $0.writeFloat(value) }
    }

    mutating func encode(_ value: Float) throws {
        try writer.writeElement(at: position) { try $0.writeFloat(value) }
    }

    mutating func encode(_ value: Int) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int8) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int16) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int32) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int64) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt8) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt16) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt32) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt64) throws {
        try writer.writeElement(at: position) { $0.writeInteger(value) }
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let index = try writer.modify { try $0.beginElement(at: position) }
        try writer.write(value, step: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = writer.modify { buffer in
            (try? buffer.beginElement(at: position)).map { buffer.openNested(.object, step: .index($0)) } ?? .nowhere
        }
        return KeyedEncodingContainer(JSONStreamKeyedContainer<NestedKey>(writer: writer, position: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = writer.modify { buffer in
            (try? buffer.beginElement(at: position)).map { buffer.openNested(.array, step: .index($0)) } ?? .nowhere
        }
        return JSONStreamUnkeyedContainer(writer: writer, position: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let nested = writer.modify { buffer in
            (try? buffer.beginElement(at: position)).map { buffer.openEncoder(step: .index($0)) } ?? .nowhere
        }
        return JSONStreamEncoder(writer: writer, position: nested)
    }
}
