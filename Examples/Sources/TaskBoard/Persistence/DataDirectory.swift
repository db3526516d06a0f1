import Foundation

/// The folder TaskBoard keeps its files in: `tasks.json` for the board, `remote.json` for the
/// in-process remote service (so that what one run pushes, the next run can pull).
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

    var tasksFile: JSONFile<TasksSnapshot> {
        JSONFile(url: url.appendingPathComponent("tasks.json"))
    }

    var remoteFile: JSONFile<RemoteService.Stored> {
        JSONFile(url: url.appendingPathComponent("remote.json"))
    }
}
