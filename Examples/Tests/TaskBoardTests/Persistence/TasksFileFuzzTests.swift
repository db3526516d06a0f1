import Foundation
import Testing

@testable import TaskBoard

/// Feeds the board's stored file (`tasks.json`) random and mutated documents: loading must give a
/// board that keeps its invariants or move the document aside with a reason; it must never crash or
/// lose the file.
@Suite(.timeLimit(.minutes(1))) struct TasksFileFuzzTests {
    private let folder: URL
    private let now = Date(timeIntervalSince1970: 1_741_946_400)

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private static func pick<Element>(_ elements: [Element], _ random: inout SeededGenerator) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &random)]
    }

    private static func randomValue(_ random: inout SeededGenerator) -> Any {
        pick(
            [
                0, -1, 1, 7, Int.max, Int.min, 2.5, "", "x", "#Home", "Home", "a b", "2025-02-30", "2025-03-14",
                true, NSNull(), [String](), ["home", "Home", "#home"], ["zeta", "alpha"], ["with space"],
                ["id": 1],
            ] as [Any],
            &random
        )
    }

    private static func randomTask(_ random: inout SeededGenerator) -> [String: Any] {
        var task: [String: Any] = [
            "id": Int.random(in: -1...6, using: &random),
            "title": pick(["Buy milk", "", "Ünïcode ✓"], &random),
        ]
        for key in ["done", "tags", "due"] where Bool.random(using: &random) {
            task[key] = randomValue(&random)
        }
        return task
    }

    /// A document: mostly well-formed boards with wrong pieces, some with corrupted text.
    private static func randomDocument(_ random: inout SeededGenerator) throws -> Data {
        var board: [String: Any] = [
            "version": pick([1, 1, 1, 2, 0], &random),
            "nextID": Int.random(in: -2...9, using: &random),
            "tasks": (0..<Int.random(in: 0...4, using: &random)).map { _ in randomTask(&random) },
        ]
        if Int.random(in: 0..<5, using: &random) == 0 {
            board[pick(["version", "nextID", "tasks"], &random)] = randomValue(&random)
        }
        var data = try JSONSerialization.data(withJSONObject: board)
        if Int.random(in: 0..<4, using: &random) == 0, !data.isEmpty {
            data[Int.random(in: 0..<data.count, using: &random)] = pick(Array("{}[]\",:0x".utf8), &random)
        }
        return data
    }

    /// What is wrong with a loaded board, or `nil`.
    private static func violation(of board: TasksSnapshot) -> String? {
        let ids = board.tasks.map(\.id)
        if board.version != TasksSnapshot.currentVersion { return "version \(board.version)" }
        if ids.contains(where: { $0 <= 0 }) || Set(ids).count != ids.count { return "ids \(ids)" }
        if board.nextID <= ids.max() ?? 0 { return "nextID \(board.nextID) not above \(ids)" }
        for task in board.tasks
        where task.tags != Tag.normalize(task.tags) || task.tags.count != Tag.normalize(task.tags).count {
            return "task \(task.id) has tags \(task.tags), not normalized"
        }
        return nil
    }

    @Test func everyDocumentLoadsValidOrIsMovedAsideWithAReason() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = DataDirectory(url: folder).tasksFile
        var random = SeededGenerator(seed: 17)
        var failures: [String] = []
        for index in 0..<400 {
            let document = try Self.randomDocument(&random)
            try document.write(to: file.url)
            let text = String(decoding: document, as: UTF8.self)
            switch try file.load(now: now, validate: { try $0.validated() }) {
            case .missing:
                failures.append("#\(index) \(text): reported missing")
            case .loaded(let board):
                if let problem = Self.violation(of: board) {
                    failures.append("#\(index) \(text): loaded, but \(problem)")
                }
            case .movedAside(let movedTo, let reason):
                let kept = try Data(contentsOf: movedTo)
                if kept != document { failures.append("#\(index) \(text): the moved file differs") }
                if reason.isEmpty { failures.append("#\(index) \(text): moved aside without a reason") }
                try FileManager.default.removeItem(at: movedTo)
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
