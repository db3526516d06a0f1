/// A keyed container of a ``JSONStreamWriter``: writes each key and value into the frame's object.
struct JSONStreamKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let writer: JSONStreamWriter
    let position: JSONStreamBuffer.Position

    var codingPath: [any CodingKey] {
        writer.codingPath(at: position.depth)
    }

    mutating func encodeNil(forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeNull() }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeBool(value) }
    }

    mutating func encode(_ value: String, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeString(value) }
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { try $0.writeFloat(value) }
    }

    mutating func encode(_ value: Float, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { try $0.writeFloat(value) }
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int8, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int16, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int64, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt8, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt16, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt32, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        try writer.writeMember(key, at: position) { $0.writeInteger(value) }
    }

    mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try writer.modify { try $0.beginKey(key, at: position) }
        try writer.write(value, step: .key(key))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type,
        forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = writer.modify { buffer in
            (try? buffer.beginKey(key, at: position)) != nil ? buffer.openNested(.object, step: .key(key)) : .nowhere
        }
        return KeyedEncodingContainer(JSONStreamKeyedContainer<NestedKey>(writer: writer, position: nested))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = writer.modify { buffer in
            (try? buffer.beginKey(key, at: position)) != nil ? buffer.openNested(.array, step: .key(key)) : .nowhere
        }
        return JSONStreamUnkeyedContainer(writer: writer, position: nested)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: JSONStreamSuperKey())
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key)
    }

    private func superEncoder(named key: some CodingKey) -> any Encoder {
        let nested = writer.modify { buffer in
            (try? buffer.beginKey(key, at: position)) != nil ? buffer.openEncoder(step: .key(key)) : .nowhere
        }
        return JSONStreamEncoder(writer: writer, position: nested)
    }
}

/// The key `superEncoder()` writes under, as `JSONEncoder` does.
private struct JSONStreamSuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }

    init() {}

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        return nil
    }
}
