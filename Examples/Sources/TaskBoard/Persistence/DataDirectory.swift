import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder TaskBoard keeps its files in: `tasks.sqlite` for the board, `remote.json` for the
/// in-process remote service (so that what one run pushes, the next run can pull), `history` for the
/// prompt.
struct DataDirectory: Sendable {
    let url: URL

    init(url: URL) {
        self.url = url
    }

    /// `$XDG_DATA_HOME/taskboard`, or `~/.local/share/taskboard` when `XDG_DATA_HOME` is not set.
    static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> DataDirectory {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return DataDirectory(url: URL(fileURLWithPath: xdg).appendingPathComponent("taskboard"))
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return DataDirectory(
            url: home.appendingPathComponent(".local").appendingPathComponent("share")
                .appendingPathComponent("taskboard")
        )
    }

    /// Whether the board can be changed, or only read.
    enum Access: Equatable, Sendable {
        case writable
        /// The board can be read but not written; `reason` names the path and the cause.
        case readOnly(reason: String)
    }

    /// A file whose write permission is off: it is not replaced.
    struct ReadOnlyFile: Error, CustomStringConvertible {
        var description: String { "the file is read-only" }
    }

    /// Why the folder cannot be used at all.
    struct Unusable: Error, CustomStringConvertible {
        let description: String
    }

    /// Checks the folder before anything is read or written, so that a problem is reported once, with
    /// its path and cause, instead of on every save:
    ///
    /// - a path that names a file, or goes through one, cannot be used (``Unusable``);
    /// - a folder (or the folder it would be created in) without write permission, a read-only file
    ///   system, or a `tasks.sqlite` without write permission makes the board read-only. A read-only
    ///   `tasks.sqlite` is respected even by root, who could write it: its permissions say not to.
    func check() throws(Unusable) -> Access {
        let path = url.path
        switch Self.kind(path) {
        case .file:
            throw Unusable(
                description: "\(path) is a file, not a folder; --data-dir names the folder that holds tasks.sqlite"
            )
        case .folder:
            if let problem = Self.writeProblem(folder: path) {
                return .readOnly(reason: "cannot write in \(path) (\(problem))")
            }
            let database = databaseURL.path
            if Self.isReadOnlyFile(database) {
                return .readOnly(reason: "\(database) is read-only")
            }
            return .writable
        case .missing:
            // The folder is created on the first save: the nearest folder that exists must allow it.
            var ancestor = url.deletingLastPathComponent()
            while Self.kind(ancestor.path) == .missing, ancestor.path != "/" {
                ancestor = ancestor.deletingLastPathComponent()
            }
            if Self.kind(ancestor.path) == .file {
                throw Unusable(description: "cannot create \(path): \(ancestor.path) is not a directory")
            }
            if let problem = Self.writeProblem(folder: ancestor.path) {
                return .readOnly(reason: "cannot create \(path) (\(problem) in \(ancestor.path))")
            }
            return .writable
        }
    }

    private enum Kind { case missing, file, folder }

    private static func kind(_ path: String) -> Kind {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return .missing }
        return isFolder.boolValue ? .folder : .file
    }

    /// Why files cannot be created in `folder`, in words, or `nil` if they can.
    private static func writeProblem(folder: String) -> String? {
        if access(folder, W_OK | X_OK) != 0 { return ErrorText.posix(errno) }
        if !ownerMayWrite(folder) { return ErrorText.posix(EACCES) }
        var info = statvfs()
        if statvfs(folder, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 { return ErrorText.posix(EROFS) }
        return nil
    }

    /// Whether `path` is a file whose write permission is off for the current user.
    static func isReadOnlyFile(_ path: String) -> Bool {
        kind(path) == .file && !ownerMayWrite(path)
    }

    /// Whether the owner's write permission is set, when the current user owns `path` (root included).
    private static func ownerMayWrite(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return true }
        guard info.st_uid == geteuid() else { return access(path, W_OK) == 0 }
        return info.st_mode & S_IWUSR != 0
    }

    /// The board: `tasks.sqlite` (``TaskDatabase``).
    var databaseURL: URL {
        url.appendingPathComponent("tasks.sqlite")
    }

    /// The board as older TaskBoards kept it, imported into the database on the first run
    /// (``TaskStorage``); also the format of `export --json` and `import`.
    var tasksFile: JSONFile<TasksSnapshot> {
        JSONFile(url: url.appendingPathComponent("tasks.json"))
    }

    /// The lines typed at the prompt.
    var historyFile: HistoryFile {
        HistoryFile(url: url.appendingPathComponent("history"))
    }

    var remoteFile: JSONFile<RemoteService.Stored> {
        JSONFile(url: url.appendingPathComponent("remote.json"))
    }
}
