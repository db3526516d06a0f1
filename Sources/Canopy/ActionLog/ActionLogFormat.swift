#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON Lines layout of an action log, shared by ``ActionRecorder`` and ``ActionLog``.
///
/// ```text
/// {"app":"2.1","canopyActionLog":1}
/// {"action":{"add":{"title":"Ship"}},"store":"root","time":0.0}
/// {"action":{"toggle":{"id":3}},"store":"root/1","time":0.25}
/// ```
enum ActionLogFormat {
    /// The format version this build writes and reads.
    static let version = 1

    /// The first line: the format version and the app's version string.
    struct Header: Codable, Equatable {
        let canopyActionLog: Int
        let app: String
    }

    /// One action: the store it was sent to (`StoreID` text), the tree's clock, the action. The recorder
    /// writes the same keys, sorted, around the action it encodes (see `ActionLogWriter`).
    struct Entry<Action> {
        let store: String
        let time: Double
        let action: Action
    }

    /// The fields of an entry, without the action: tells a broken line from an action that no longer
    /// decodes.
    struct EntryFields: Decodable {
        let store: String
        let time: Double
    }
}

extension ActionLogFormat.Entry: Decodable where Action: Decodable {}
