/// The single-value container of a ``JSONStreamWriter``: writes one value as the frame's content.
struct JSONStreamSingleValueContainer: SingleValueEncodingContainer {
    let writer: JSONStreamWriter
    let position: JSONStreamBuffer.Position

    var codingPath: [any CodingKey] {
        writer.codingPath(at: position.depth)
    }

    mutating func encodeNil() throws {
        try writer.writeSingle(at: position) { $0.writeNull() }
    }

    mutating func encode(_ value: Bool) throws {
        try writer.writeSingle(at: position) { $0.writeBool(value) }
    }

    mutating func encode(_ value: String) throws {
        try writer.writeSingle(at: position) { $0.writeString(value) }
    }

    mutating func encode(_ value: Double) throws {
        try writer.writeSingle(at: position) { try $0.writeFloat(value) }
    }

    mutating func encode(_ value: Float) throws {
        try writer.writeSingle(at: position) { try $0.writeFloat(value) }
    }

    mutating func encode(_ value: Int) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int8) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int16) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int32) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: Int64) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt8) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt16) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt32) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode(_ value: UInt64) throws {
        try writer.writeSingle(at: position) { $0.writeInteger(value) }
    }

    mutating func encode<Value: Encodable>(_ value: Value) throws {
        try writer.modify { try $0.beginSingle(at: position) }
        try writer.write(value, step: .none)
    }
}
