import ArgumentParser
import Canopy
import Foundation
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct LauncherTests {
    @Test func opensTheDataFolderAndTheClockThatTheDependenciesGive() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("taskboard-launcher-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = DataDirectory(url: folder)
        let saved = TasksSnapshot(nextID: 2, tasks: [TaskItem(id: 1, title: "Buy milk")])
        try directory.tasksFile.save(saved)
        try directory.remoteFile.save(RemoteService.Stored(revision: 4, board: saved))
        let scheduler = ManualScheduler()
        let captured = CapturedConsole()
        let options = try GlobalOptions.parse(["--latency", "0", "--today", "2025-03-14"])

        let session = try withDependencies {
            $0.dataDirectory = directory
            $0.scheduler = scheduler
        } operation: {
            try Launcher.session(options, console: captured.console, mode: .script)
        }

        #expect(await session.tasks().snapshot == saved)
        #expect(try await session.board.environment.remote.pull()?.revision == 4)
        #expect(session.board.environment.scheduler as? ManualScheduler === scheduler)
        #expect(session.tasksPath == directory.databaseURL.path)
        // The first run imports the old tasks.json into the database, and says so once.
        #expect(
            captured.errors
                == "note: imported 1 task from \(directory.tasksFile.url.path) into tasks.sqlite; "
                + "the file is now tasks.json.imported\n"
        )
    }

    @Test func anExplicitDataDirWinsOverTheDependency() throws {
        let explicit = try GlobalOptions.parse(["--data-dir", "/tmp/taskboard-explicit"])
        let unset = try GlobalOptions.parse([])
        let folder = withDependencies {
            $0.dataDirectory = DataDirectory(url: URL(fileURLWithPath: "/tmp/taskboard-from-dependencies"))
        } operation: {
            (explicit.dataDirectory.url.path, unset.dataDirectory.url.path)
        }
        #expect(folder == ("/tmp/taskboard-explicit", "/tmp/taskboard-from-dependencies"))
    }
}
