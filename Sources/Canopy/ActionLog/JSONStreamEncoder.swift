/// The `Encoder` a value gets from a ``JSONStreamWriter``: it names the frame the value writes into.
struct JSONStreamEncoder: Encoder {
    let writer: JSONStreamWriter
    let position: JSONStreamWriter.Position

    var codingPath: [any CodingKey] {
        writer.codingPath(at: position.depth)
    }

    var userInfo: [CodingUserInfoKey: Any] {
        [:]
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let position = writer.open(.object, at: position) ? position : writer.nowhere
        return KeyedEncodingContainer(JSONStreamKeyedContainer<Key>(writer: writer, position: position))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let position = writer.open(.array, at: position) ? position : writer.nowhere
        return JSONStreamUnkeyedContainer(writer: writer, position: position)
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
