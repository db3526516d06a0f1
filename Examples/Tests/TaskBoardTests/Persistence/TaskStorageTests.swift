import Foundation
import GRDB
import Testing

@testable import TaskBoard

/// Opening a data folder's database: a corrupt file is moved aside and kept, and an old `tasks.json`
/// is imported once.
@Suite(.timeLimit(.minutes(1))) struct TaskStorageTests {
    private let folder: URL
    private let now = Date(timeIntervalSince1970: 1_741_946_400)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var directory: DataDirectory { DataDirectory(url: folder) }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private let board = TasksSnapshot(
        nextID: 9,
        tasks: [TaskItem(id: 1, title: "Buy milk", tags: ["home"]), TaskItem(id: 4, title: "Walk", isDone: true)]
    )

    @Test func aNewFolderGetsAnEmptyDatabase() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let opened = try TaskStorage.open(DataDirectory(url: folder.appendingPathComponent("new/deeper")), now: now)
        #expect(try opened.database.loadAll().isEmpty)
        #expect(opened.movedAside.isEmpty)
        #expect(opened.imported == nil)
    }

    @Test func anOldTasksFileIsImportedOnceAndRenamed() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try directory.tasksFile.save(board)
        let opened = try TaskStorage.open(directory, now: now)
        #expect(opened.imported?.count == 2)
        #expect(opened.imported?.movedTo?.lastPathComponent == "tasks.json.imported")
        #expect(try opened.database.loadAll() == board.tasks)
        #expect(try await opened.database.reserveID() == 9, "the file's next id is kept")
        opened.database.close()
        // A tasks.json that shows up later is not imported again: the database is the board now.
        try directory.tasksFile.save(TasksSnapshot(nextID: 2, tasks: [TaskItem(id: 1, title: "Stale")]))
        let again = try TaskStorage.open(directory, now: now)
        #expect(again.imported == nil)
        #expect(try again.database.loadAll() == board.tasks)
        #expect(try contents().contains("tasks.json"))
    }

    @Test func twoRunsOpeningAtOnceImportTheFileOnce() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try directory.tasksFile.save(board)
        let directory = self.directory
        let now = self.now
        let imports = try await withThrowingTaskGroup(of: Int?.self) { group in
            for _ in 0..<2 {
                group.addTask { try TaskStorage.open(directory, now: now).imported?.count }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(imports.compactMap { $0 } == [2])
        #expect(try TaskStorage.open(directory, now: now).database.loadAll() == board.tasks)
    }

    @Test func anUnreadableTasksFileIsMovedAsideAndTheDatabaseStartsEmpty() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{ half a board".utf8).write(to: directory.tasksFile.url)
        let opened = try TaskStorage.open(directory, now: now)
        #expect(opened.imported == nil)
        #expect(opened.movedAside.map(\.to.lastPathComponent) == ["tasks.json.corrupt-20250314T100000Z"])
        #expect(opened.movedAside.first?.reason == "could not be decoded (not valid JSON)")
        #expect(try opened.database.loadAll().isEmpty)
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideUntouched() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = "these are not the tasks you are looking for\n"
        try Data(text.utf8).write(to: directory.databaseURL)
        let opened = try TaskStorage.open(directory, now: now)
        let aside = try #require(opened.movedAside.first)
        #expect(aside.reason == "is unreadable (not an SQLite database)")
        #expect(aside.to.lastPathComponent == "tasks.sqlite.corrupt-20250314T100000Z")
        #expect(try String(contentsOf: aside.to, encoding: .utf8) == text)
        #expect(try opened.database.loadAll().isEmpty)
        #expect(try contents().contains("tasks.sqlite.corrupt-20250314T100000Z"))
    }

    @Test func aDatabaseThatFailsItsCheckIsMovedAsideWithItsCompanionFiles() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try TaskDatabase(url: directory.databaseURL)
        let tasks = (1...200).map { TaskItem(id: $0, title: "Task number \($0) with a longer title") }
        try await database.apply(upserts: tasks, deletions: [])
        database.close()
        // Garbage over the third page, inside the tasks table's b-tree; the header stays valid.
        let handle = try FileHandle(forWritingTo: directory.databaseURL)
        try handle.seek(toOffset: 2 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xA5, count: 4096))
        try handle.close()
        let damaged = try Data(contentsOf: directory.databaseURL)
        try Data("wal".utf8).write(to: URL(fileURLWithPath: directory.databaseURL.path + "-wal"))

        let opened = try TaskStorage.open(directory, now: now)
        let aside = try #require(opened.movedAside.first)
        #expect(aside.reason.hasPrefix("fails its integrity check ("))
        #expect(try Data(contentsOf: aside.to) == damaged)
        #expect(FileManager.default.fileExists(atPath: aside.to.path + "-wal"))
        #expect(try opened.database.loadAll().isEmpty)
    }

    @Test func aSecondCorruptDatabaseDoesNotReplaceTheFirst() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for text in ["first", "second"] {
            try Data(text.utf8).write(to: directory.databaseURL)
            try? FileManager.default.removeItem(atPath: directory.databaseURL.path + "-wal")
            try? FileManager.default.removeItem(atPath: directory.databaseURL.path + "-shm")
            let opened = try TaskStorage.open(directory, now: now)
            opened.database.close()
        }
        #expect(
            try contents().filter { $0.contains("corrupt") }
                == ["tasks.sqlite.corrupt-20250314T100000Z", "tasks.sqlite.corrupt-20250314T100000Z-2"]
        )
    }

    @Test func aCorruptDatabaseOnAReadOnlyBoardIsReportedAndLeftAlone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("garbage".utf8).write(to: directory.databaseURL)
        let error = #expect(throws: TaskDatabaseError.self) {
            try TaskStorage.open(directory, now: now, options: TaskDatabase.Options(readOnly: true))
        }
        #expect(error?.kind == .corrupt)
        #expect(
            error?.description
                == "\(directory.databaseURL.path): the database is unreadable (not an SQLite database); the board is read-only, so it is "
                + "left where it is"
        )
        #expect(try contents() == ["tasks.sqlite"])
        #expect(try String(contentsOf: directory.databaseURL, encoding: .utf8) == "garbage")
    }
}
