import Foundation
import Testing

@testable import TaskBoard

@Suite struct DataDirectoryTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func check(_ url: URL) throws(DataDirectory.Unusable) -> DataDirectory.Access {
        try DataDirectory(url: url).check()
    }

    @Test func aWritableOrMissingFolderIsWritable() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try check(folder) == .writable)
        #expect(try check(folder.appendingPathComponent("new/deeper")) == .writable)
    }

    @Test func aRegularFileIsNotAFolder() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain")
        try Data("x".utf8).write(to: file)
        let named = #expect(throws: DataDirectory.Unusable.self) { try check(file) }
        #expect(
            named?.description
                == "\(file.path) is a file, not a folder; --data-dir names the folder that holds tasks.sqlite"
        )
        let below = #expect(throws: DataDirectory.Unusable.self) { try check(file.appendingPathComponent("sub")) }
        #expect(below?.description == "cannot create \(file.path)/sub: \(file.path) is not a directory")
    }

    @Test func aReadOnlyDatabaseMakesTheBoardReadOnly() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = DataDirectory(url: folder)
        let database = try TaskDatabase(url: directory.databaseURL)
        try await database.apply(upserts: [TaskItem(id: 1, title: "Kept")], deletions: [])
        database.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: directory.databaseURL.path)
        #expect(try check(folder) == .readOnly(reason: "\(directory.databaseURL.path) is read-only"))
    }

    @Test func aReadOnlyJSONFileIsNotReplaced() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = JSONFile<TasksSnapshot>(url: folder.appendingPathComponent("board.json"))
        try exported.save(TasksSnapshot(nextID: 2, tasks: [TaskItem(id: 1, title: "Kept")]))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: exported.url.path)
        let refused = #expect(throws: (any Error).self) { try exported.save(TasksSnapshot(nextID: 1, tasks: [])) }
        #expect(refused.map(ErrorText.describe) == "the file is read-only")
        #expect(try String(contentsOf: exported.url, encoding: .utf8).contains("Kept"))
    }

    @Test func aFolderWithoutWritePermissionMakesTheBoardReadOnly() throws {
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try? FileManager.default.removeItem(at: folder)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        #expect(try check(folder) == .readOnly(reason: "cannot write in \(folder.path) (permission denied)"))
        #expect(
            try check(folder.appendingPathComponent("sub"))
                == .readOnly(reason: "cannot create \(folder.path)/sub (permission denied in \(folder.path))")
        )
    }

    @Test func fileErrorsAreDescribedInWords() {
        #expect(ErrorText.describe(POSIXError(.EACCES)) == "permission denied")
        #expect(ErrorText.describe(POSIXError(.ENOSPC)) == "disk full")
        #expect(ErrorText.describe(POSIXError(.EROFS)) == "read-only file system")
        #expect(ErrorText.describe(POSIXError(.ENOTDIR)) == "not a directory")
        #expect(ErrorText.describe(CocoaError(.fileWriteNoPermission)) == "permission denied")
        #expect(ErrorText.describe(CocoaError(.fileWriteOutOfSpace)) == "disk full")
        #expect(ErrorText.isPermanent(POSIXError(.EACCES)))
        #expect(ErrorText.isPermanent(DataDirectory.ReadOnlyFile()))
        #expect(!ErrorText.isPermanent(POSIXError(.ENOSPC)))
    }
}
