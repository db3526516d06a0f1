import Foundation
import Testing

@testable import TaskBoard

/// Two connections on one database file, as two TaskBoard processes have: what one stores, the other
/// reads back as external changes, and its own writes never undo them.
@Suite(.timeLimit(.minutes(1))) struct TwoConnectionsTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-two-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func open() throws -> TaskDatabase {
        try TaskDatabase(url: folder.appendingPathComponent("tasks.sqlite"))
    }

    private let milk = TaskItem(id: 1, title: "Buy milk")
    private let bike = TaskItem(id: 2, title: "Fix the bike")

    @Test func anEditWritesOnlyTheFieldsItChanged() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = try open()
        let theirs = try open()
        try await mine.apply(upserts: [milk], deletions: [])
        _ = try theirs.loadAll()
        var renamed = milk
        renamed.title = "Buy oat milk"
        try await theirs.apply(upserts: [renamed], deletions: [])

        // This side still holds the old title, and marks the task done.
        var done = milk
        done.isDone = true
        #expect(try await mine.apply(upserts: [done], deletions: []) == [])
        #expect(try theirs.loadAll() == [TaskItem(id: 1, title: "Buy oat milk", isDone: true)])
    }

    @Test func anEditOfATaskDeletedElsewhereIsReportedAndNotWrittenBack() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = try open()
        let theirs = try open()
        try await mine.apply(upserts: [milk, bike], deletions: [])
        _ = try theirs.loadAll()
        try await theirs.apply(upserts: [], deletions: [1])

        var done = milk
        done.isDone = true
        var renamed = bike
        renamed.title = "Fix the bike's brakes"
        #expect(try await mine.apply(upserts: [done, renamed], deletions: []) == [1])
        // Nothing of the batch was stored; without the deleted task it goes through.
        #expect(try theirs.loadAll() == [bike])
        #expect(try await mine.apply(upserts: [renamed], deletions: []) == [])
        #expect(try theirs.loadAll() == [renamed])
    }

    @Test func anUnchangedTaskIsNotWritten() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = try open()
        let theirs = try open()
        try await mine.apply(upserts: [milk], deletions: [])
        _ = try theirs.loadAll()
        var renamed = milk
        renamed.title = "Buy oat milk"
        try await theirs.apply(upserts: [renamed], deletions: [])
        // A copy of the old value, as a stale board would send it, changes nothing.
        #expect(try await mine.apply(upserts: [milk], deletions: []) == [])
        #expect(try theirs.loadAll() == [renamed])
    }

    @Test func anotherConnectionsCommitsAreReadBackAsChanges() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let mine = try open()
        let theirs = try open()
        try await mine.apply(upserts: [milk, bike], deletions: [])
        _ = try theirs.loadAll()
        #expect(try theirs.changesSinceLastRead() == nil)

        let added = TaskItem(id: 3, title: "Call Ann")
        var done = milk
        done.isDone = true
        try await mine.apply(upserts: [done, added], deletions: [2])
        let changes = try theirs.changesSinceLastRead()
        #expect(changes == TaskDatabase.ExternalChanges(upserts: [done, added], deletions: [2], nextID: 4))
        // Read once: the next look finds nothing new, and this side's own writes are not news to it.
        #expect(try theirs.changesSinceLastRead() == nil)
        try await theirs.apply(upserts: [TaskItem(id: 4, title: "Mine")], deletions: [])
        #expect(try theirs.changesSinceLastRead() == nil)
    }
}
