import ArgumentParser
import Canopy
import Foundation

/// `taskboard replay <file> [--into <folder>]`: rebuilds the board an action log (`--record <file>`)
/// describes, in a scratch data folder, and prints it as `list` would.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay an action log made with --record, and print the board it gives.",
        discussion: """
            The board is rebuilt from nothing, with its effects off (the log holds what they did), in a \
            scratch data folder that is deleted at the end; --into <folder> keeps the board there, to look \
            further: taskboard --data-dir <folder> list.
            """
    )

    @Argument(help: ArgumentHelp("The action log.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The folder to rebuild the board in; it must not hold a board.", valueName: "path"))
    var into: String?

    func run() async throws {
        let console = Console.standard()
        do {
            let folder = try scratchFolder()
            // A scratch folder is the replay's own: it goes when the replay ends, however it ends.
            defer { if into == nil { try? FileManager.default.removeItem(at: folder.url) } }
            let (session, replayed) = try await ActionLogging.replay(file, into: folder, console: console)
            try await ListCommand.parse([]).execute(in: session)
            console.notice(
                into == nil
                    ? "replayed \(replayed) actions (--into <folder> keeps the board they give)"
                    : "replayed \(replayed) actions into \(folder.url.path)"
            )
        } catch let failure as CommandFailure {
            console.error(failure.description)
            throw ExitCode.failure
        }
    }

    /// `--into`, or a new folder in the temporary directory; never a folder that holds a board.
    private func scratchFolder() throws(CommandFailure) -> DataDirectory {
        let url =
            into.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-replay-\(UUID().uuidString)")
        let folder = DataDirectory(url: url)
        for board in [folder.databaseURL, folder.tasksFile.url]
        where FileManager.default.fileExists(atPath: board.path) {
            throw CommandFailure("\(board.path) already exists; replay into an empty folder")
        }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("cannot create \(url.path) (\(error.localizedDescription))")
        }
        return folder
    }
}
