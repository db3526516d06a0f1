/// An unkeyed container of a ``JSONStreamWriter``: writes each element into the frame's array.
struct JSONStreamUnkeyedContainer: UnkeyedEncodingContainer {
    let writer: JSONStreamWriter
    let position: JSONStreamWriter.Position

    var codingPath: [any CodingKey] {
        writer.codingPath(at: position.depth)
    }

    var count: Int {
        writer.count(at: position)
    }

    mutating func encodeNil() throws {
        _ = try writer.beginElement(at: position)
        writer.writeNull()
    }

    mutating func encode(_ value: Bool) throws {
        _ = try writer.beginElement(at: position)
        writer.writeBool(value)
    }

    mutating func encode(_ value: String) throws {
        _ = try writer.beginElement(at: position)
        writer.writeString(value)
    }

    mutating func encode(_ value: Double) throws {
        _ = try writer.beginElement(at: position)
        try writer.writeFloat(value)
    }

    mutating func encode(_ value: Float) throws {
        _ = try writer.beginElement(at: position)
        try writer.writeFloat(value)
    }

    mutating func encode(_ value: Int) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int8) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int16) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int32) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: Int64) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt8) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt16) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt32) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt64) throws {
        _ = try writer.beginElement(at: position)
        writer.writeInteger(value)
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        let index = try writer.beginElement(at: position)
        try writer.write(value, step: .index(index))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested =
            (try? writer.beginElement(at: position)).map { writer.openNested(.object, step: .index($0)) }
            ?? writer.nowhere
        return KeyedEncodingContainer(JSONStreamKeyedContainer<NestedKey>(writer: writer, position: nested))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested =
            (try? writer.beginElement(at: position)).map { writer.openNested(.array, step: .index($0)) }
            ?? writer.nowhere
        return JSONStreamUnkeyedContainer(writer: writer, position: nested)
    }

    mutating func superEncoder() -> any Encoder {
        let nested =
            (try? writer.beginElement(at: position)).map { writer.openEncoder(step: .index($0)) } ?? writer.nowhere
        return JSONStreamEncoder(writer: writer, position: nested)
    }
}
