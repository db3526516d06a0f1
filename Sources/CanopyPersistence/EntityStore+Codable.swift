extension EntityStore: Encodable where Entity: Encodable {
    /// Encodes the entities as an array, in order; pending changes are not encoded.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for entity in self {
            try container.encode(entity)
        }
    }
}

extension EntityStore: Decodable where Entity: Decodable {
    /// Decodes an array of entities, with no changes recorded. Two entities with one id are a
    /// `DecodingError.dataCorrupted`.
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var entities: [Entity] = []
        var seen = Set<Entity.ID>()
        while !container.isAtEnd {
            let entity = try container.decode(Entity.self)
            guard seen.insert(entity.id).inserted else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "The id \(entity.id) appears twice"
                )
            }
            entities.append(entity)
        }
        self.init(entities)
    }
}
