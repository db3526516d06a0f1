/// The `Encoder` a value gets from a ``JSONStreamWriter``: it names the frame the value writes into.
struct JSONStreamEncoder: Encoder {
    let writer: JSONStreamWriter
    let position: JSONStreamBuffer.Position

    var codingPath: [any CodingKey] {
        writer.codingPath(at: position.depth)
    }

    var userInfo: [CodingUserInfoKey: Any] {
        [:]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let opened = writer.modify { $0.open(.object, at: position) } ? position : .nowhere
        return KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(writer: writer, position: opened))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let opened = writer.modify { $0.open(.array, at: position) } ? position : .nowhere
        return JSONStreamUnkeyedContainer(writer: writer, position: opened)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        JSONStreamSingleValueContainer(writer: writer, position: position)
    }
}

/// The coding-path key of an array element.
struct JSONStreamIndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.init(intValue)
    }
}
