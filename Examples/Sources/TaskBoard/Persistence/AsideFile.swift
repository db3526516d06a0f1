import Foundation

/// Renames a file that must not be overwritten to a name beside it that is free.
enum AsideFile {
    /// Renames `url` to `<name>.<label>-<UTC timestamp>` (with `-2`, `-3`… if that is taken), along with
    /// its `companions` (suffixes such as `-wal`, moved to the new name plus the suffix when they
    /// exist), and returns the new URL.
    static func move(_ url: URL, label: String, now: Date, companions: [String] = []) throws -> URL {
        let stamp = JSONFile<TasksSnapshot>.timestamp(now)
        let target = free(url.appendingPathExtension("\(label)-\(stamp)"), companions: companions)
        try FileManager.default.moveItem(at: url, to: target)
        for suffix in companions {
            let companion = URL(fileURLWithPath: url.path + suffix)
            guard FileManager.default.fileExists(atPath: companion.path) else { continue }
            try FileManager.default.moveItem(at: companion, to: URL(fileURLWithPath: target.path + suffix))
        }
        return target
    }

    /// Renames `url` to `<name>.<label>` (with `-2`, `-3`… if that is taken) and returns the new URL.
    static func move(_ url: URL, label: String) throws -> URL {
        let target = free(url.appendingPathExtension(label), companions: [])
        try FileManager.default.moveItem(at: url, to: target)
        return target
    }

    /// `target`, or `target-2`, `target-3`… : the first name that neither it nor a companion uses.
    private static func free(_ target: URL, companions: [String]) -> URL {
        func taken(_ url: URL) -> Bool {
            ([""] + companions).contains { FileManager.default.fileExists(atPath: url.path + $0) }
        }
        var candidate = target
        var suffix = 2
        while taken(candidate) {
            candidate = URL(fileURLWithPath: target.path + "-\(suffix)")
            suffix += 1
        }
        return candidate
    }
}
