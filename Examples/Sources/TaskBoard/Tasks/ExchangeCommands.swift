import ArgumentParser
import Foundation

/// `export [--json] [<file>]`: the board as a JSON snapshot (the format `tasks.json` had), on standard
/// output or in a file.
struct ExportCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the board as JSON, to standard output or a file.",
        discussion: """
            The JSON is the snapshot format older TaskBoards kept in tasks.json: {"version": 1, "nextID": …, \
            "tasks": [...]}. 'import <file>' reads it back. Example: export --json board.json
            """
    )

    @Flag(help: "Write JSON (the only format, and the default).")
    var json = false

    @Argument(help: ArgumentHelp("The file to write; standard output when left out.", valueName: "file"))
    var file: String?

    func execute(in session: Session) async throws(CommandFailure) {
        let snapshot = await session.tasks().snapshot
        guard let file else {
            do {
                let text = String(decoding: try JSONFile<TasksSnapshot>.encode(snapshot), as: UTF8.self)
                session.console.line(String(text.dropLast()))
            } catch {
                throw CommandFailure("could not encode the board (\(error))")
            }
            return
        }
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        do {
            try JSONFile<TasksSnapshot>(url: url).save(snapshot)
        } catch {
            throw CommandFailure("could not write \(url.path) (\(ErrorText.describe(error)))")
        }
        let tasks = snapshot.tasks.count == 1 ? "1 task" : "\(snapshot.tasks.count) tasks"
        session.console.line("exported \(tasks) to \(url.path)")
    }
}

/// `import <file>`: replaces the board with a JSON snapshot made by `export` (or an older `tasks.json`).
struct ImportCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Replace the board with the tasks of a JSON file made by 'export'.",
        discussion: """
            The tasks keep their numbers. Tasks of the board that the file does not have are deleted; \
            'export --json <file>' first keeps a copy.
            """
    )

    @Argument(help: ArgumentHelp("The JSON file.", valueName: "file"))
    var file: String

    func execute(in session: Session) async throws(CommandFailure) {
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        let snapshot: TasksSnapshot
        do {
            snapshot = try JSONFile<TasksSnapshot>.read(url) { try $0.validated() }
        } catch {
            throw CommandFailure("cannot import \(url.path): it \(error.description)", hint: "nothing was changed")
        }
        let before = await session.tasks().items.count
        _ = try await session.change(.replace(snapshot))
        let tasks = snapshot.tasks.count == 1 ? "1 task" : "\(snapshot.tasks.count) tasks"
        session.console.line("imported \(tasks) from \(url.path) (the board had \(before))")
    }
}
