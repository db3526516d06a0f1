import Foundation
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct JSONFileTests {
    private let folder: URL
    private let now = Date(timeIntervalSince1970: 1_741_946_400)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var file: JSONFile<TasksSnapshot> {
        DataDirectory(url: folder).tasksFile
    }

    private func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func roundTripsTheBoardAndLeavesNoTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let board = TasksSnapshot(
            nextID: 3,
            tasks: [
                TaskItem(id: 1, title: "Buy milk", tags: ["home"], due: Day(year: 2025, month: 3, day: 14)),
                TaskItem(id: 2, title: "Ünïcode ✓", isDone: true),
            ]
        )
        try file.save(board)
        try file.save(board)
        guard case .loaded(let loaded) = try file.load(now: now, validate: { try $0.validated() }) else {
            Issue.record("expected the board back")
            return
        }
        #expect(loaded == board)
        #expect(try contents() == ["tasks.json"])
    }

    @Test func aMissingFileIsAnEmptyStart() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        guard case .missing = try file.load(now: now) else {
            Issue.record("expected .missing")
            return
        }
    }

    @Test(arguments: [
        ("{not json", "could not be decoded (not valid JSON)"),
        (#"{"version": 1, "nextID": 2}"#, "could not be decoded (tasks is missing)"),
        (#"{"version": 9, "nextID": 1, "tasks": []}"#, "could not be decoded (format version 9 is not supported)"),
        (
            #"{"version": 1, "nextID": 1, "tasks": [{"id": 1, "title": "a"}, {"id": 1, "title": "b"}]}"#,
            "could not be decoded (task #1 appears twice)"
        ),
        (#"{"version": 1, "nextID": 1, "tasks": [{"id": 1, "title": "a", "due": "soon"}]}"#, "could not be decoded"),
    ])
    func anUnusableFileIsMovedAsideAndKeptIntact(text: String, reason: String) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: file.url)
        guard case .movedAside(let movedTo, let why) = try file.load(now: now, validate: { try $0.validated() }) else {
            Issue.record("expected the file to be moved aside")
            return
        }
        #expect(why.hasPrefix(reason))
        #expect(movedTo.lastPathComponent == "tasks.json.corrupt-20250314T100000Z")
        #expect(try String(contentsOf: movedTo, encoding: .utf8) == text)
        #expect(try contents() == ["tasks.json.corrupt-20250314T100000Z"])
    }

    @Test func aSecondCorruptFileDoesNotReplaceTheFirst() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for text in ["first", "second"] {
            try Data(text.utf8).write(to: file.url)
            _ = try file.load(now: now)
        }
        #expect(try contents() == ["tasks.json.corrupt-20250314T100000Z", "tasks.json.corrupt-20250314T100000Z-2"])
    }

    @Test func anUnreadableFileIsMovedAsideToo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: true)
        guard case .movedAside(_, let reason) = try file.load(now: now) else {
            Issue.record("expected the file to be moved aside")
            return
        }
        #expect(reason.hasPrefix("could not be read"))
    }

    @Test func aFailedWriteThrowsAndLeavesTheOldFile() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try file.save(TasksSnapshot(nextID: 2, tasks: [TaskItem(id: 1, title: "Kept")]))
        // A folder where the file should be: rename cannot replace it.
        let blocked = JSONFile<TasksSnapshot>(url: folder.appendingPathComponent("blocked"))
        try FileManager.default.createDirectory(
            at: blocked.url.appendingPathComponent("inside"),
            withIntermediateDirectories: true
        )
        #expect(throws: (any Error).self) { try blocked.save(TasksSnapshot(nextID: 1, tasks: [])) }
        #expect(try contents() == ["blocked", "tasks.json"])
    }
}
