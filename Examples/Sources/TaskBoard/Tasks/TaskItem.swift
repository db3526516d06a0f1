import Foundation

/// One task on the board.
struct TaskItem: Codable, Hashable, Identifiable, Sendable {
    /// The numbers a task may have. Every id that enters the board (a command's argument, a JSON file,
    /// a database row, an action log) is checked against it, so that counting on from the largest id
    /// never overflows.
    static let ids = 1...999_999_999

    /// A small number, unique on the board, that commands use to name the task (`done 3`).
    let id: Int
    var title: String
    var isDone = false
    /// Normalized with ``Tag/normalize(_:)``, sorted, without duplicates.
    var tags: [String] = []
    var due: Day?

    /// Whether the task is open and its due day is before `today`.
    func isOverdue(today: Day) -> Bool {
        guard !isDone, let due else { return false }
        return due < today
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case title
        case isDone = "done"
        case tags
        case due
    }

    init(id: Int, title: String, isDone: Bool = false, tags: [String] = [], due: Day? = nil) {
        self.id = id
        self.title = title
        self.isDone = isDone
        self.tags = tags
        self.due = due
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(isDone, forKey: .isDone)
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        try container.encodeIfPresent(due, forKey: .due)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int.self, forKey: .id)
        title = try container.decode(String.self, forKey: .title)
        isDone = try container.decodeIfPresent(Bool.self, forKey: .isDone) ?? false
        // A hand-edited file may spell tags as typed (`#Home`); store them normalized, and refuse an
        // invalid one rather than drop it.
        let stored = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        if let invalid = stored.first(where: { Tag.normalize($0) == nil }) {
            throw DecodingError.dataCorruptedError(
                forKey: .tags,
                in: container,
                debugDescription: "'\(invalid)' is not a valid tag"
            )
        }
        tags = Tag.normalize(stored)
        due = try container.decodeIfPresent(Day.self, forKey: .due)
    }
}

/// The rules for tag names: lowercase words that may contain `-`, `_` and `/`, written with or
/// without a leading `#`.
enum Tag {
    /// The tag in its stored form (`"#Home"` becomes `"home"`), or `nil` when `text` is not a valid tag.
    static func normalize(_ text: String) -> String? {
        var tag = Substring(text.trimmingCharacters(in: .whitespaces).lowercased())
        if tag.hasPrefix("#") { tag = tag.dropFirst() }
        guard !tag.isEmpty, tag.count <= 32,
            tag.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "/" })
        else { return nil }
        return String(tag)
    }

    /// `tags` normalized, sorted and without duplicates; invalid ones are dropped.
    static func normalize(_ tags: [String]) -> [String] {
        Array(Set(tags.compactMap(normalize))).sorted()
    }
}
