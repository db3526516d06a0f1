/// The entity the persistence tests store.
struct Note: Identifiable, Hashable, Codable, Sendable {
    let id: Int
    var text: String

    init(_ id: Int, _ text: String = "") {
        self.id = id
        self.text = text
    }
}
