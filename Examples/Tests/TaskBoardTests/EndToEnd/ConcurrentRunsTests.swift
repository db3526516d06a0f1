import Foundation
import Testing

@testable import TaskBoard

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Several `taskboard` processes on one data folder, and one killed with SIGKILL in the middle of a
/// stream of writes (issue 16). One test at a time: each makes its own processes race, and the others'
/// would only add load.
@Suite(.serialized, .timeLimit(.minutes(2))) struct ConcurrentRunsTests {
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("taskboard-runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private var data: String { folder.appendingPathComponent("data").path }

    private func start(
        _ arguments: [String],
        dataDirectory: String? = nil
    ) throws -> TaskBoardProcess {
        // The runs wait for each other's lock longer than a person's would: on a machine whose cores are
        // busy with other work, a run holding the lock can take more than the default 5 s to let go.
        try TaskBoardProcess.start(arguments + ["--data-dir", dataDirectory ?? data, "--lock-wait", "60"])
    }

    /// Row: two one-shot `add`s at once on one folder, 20 rounds, kept 25 of 40 tasks with status 0.
    @Test func twoOneShotAddsAtOnceKeepEveryTaskUnderTheNumberEachPrinted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var printed: [Int: String] = [:]
        // The first round also races to create the database and its schema.
        for round in 1...6 {
            let runs = try ["a", "b"].map { side in (title: "r\(round)\(side)", try start(["add", "r\(round)\(side)"]))
            }
            for (title, run) in runs {
                try run.input.fileHandleForWriting.close()
                let output = String(decoding: run.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let errors = String(decoding: run.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                run.process.waitUntilExit()
                #expect(run.process.terminationStatus == 0, "\(errors)")
                let number = try #require(Self.addedNumber(output, title: title), "\(output)")
                #expect(printed[number] == nil, "#\(number) was printed twice")
                printed[number] = title
            }
        }
        let stored = try StoredBoard.tasks(in: data)
        #expect(stored.count == 12)
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.title) }) == printed)
        #expect(try StoredBoard.integrity(in: data) == ["ok"])
    }

    /// Two first runs at once on new folders: both switch the new database to WAL, which SQLite fails
    /// at once for one of them (a deadlock between two shared locks, which the busy timeout does not
    /// cover); before the open retried it, about one race in five failed with "locked", and 40 rounds
    /// failed every time.
    @Test func twoFirstRunsAtOnceOnANewFolderBothStoreTheirTask() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for round in 1...40 {
            let folderOfRound = folder.appendingPathComponent("new-\(round)").path
            let runs = try ["a", "b"].map { side in
                (title: "\(side)\(round)", try start(["add", "\(side)\(round)"], dataDirectory: folderOfRound))
            }
            for (title, run) in runs {
                try run.input.fileHandleForWriting.close()
                let output = String(decoding: run.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                let errors = String(decoding: run.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                run.process.waitUntilExit()
                #expect(run.process.terminationStatus == 0, "round \(round): \(errors)")
                #expect(Self.addedNumber(output, title: title) != nil, "round \(round): \(output)")
            }
            #expect(try StoredBoard.tasks(in: folderOfRound).count == 2, "round \(round)")
        }
    }

    /// Row: two prompts on one folder both printed `added #2`, and the file kept one of them. Two
    /// scripts stand in for the prompts here: each adds 15 tasks while the other does.
    @Test func twoRunsAddingAtOnceNeverPrintTheSameNumber() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let titles = ["left", "right"].map { side in (1...15).map { "\(side) \($0)" } }
        let runs = try titles.map { _ in try start(["--script", "-"]) }
        for (run, list) in zip(runs, titles) {
            run.input.fileHandleForWriting.write(Data(list.map { "add \($0)\n" }.joined().utf8))
            try run.input.fileHandleForWriting.close()
        }
        var printed: [Int: String] = [:]
        for (run, list) in zip(runs, titles) {
            let output = String(decoding: run.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: run.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.process.waitUntilExit()
            #expect(run.process.terminationStatus == 0, "\(errors)")
            let lines = output.split(separator: "\n").map { String($0) + "\n" }
            #expect(lines.count == list.count)
            for (line, title) in zip(lines, list) {
                let number = try #require(Self.addedNumber(line, title: title), "\(line)")
                #expect(printed.updateValue(title, forKey: number) == nil, "#\(number) was printed twice")
            }
        }
        let stored = try StoredBoard.tasks(in: data)
        #expect(Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0.title) }) == printed)
        #expect(stored.count == 30)
    }

    /// A script reading `add`s from a pipe is killed with SIGKILL between two batches: every task a
    /// batch reported stored (`--log-level debug`) is there when the board is opened again, and the
    /// database passes its integrity check.
    @Test func aRunKilledInTheMiddleOfAStreamOfAddsKeepsEveryStoredBatch() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try start(["--script", "-", "--log-level", "debug"])
        let errors = LineReader(run.errors.fileHandleForReading)
        var stored = Set<Int>()
        var next = 1
        for _ in 1...4 {
            let batch = (next..<next + 5).map { "add Task \($0)\n" }.joined()
            run.input.fileHandleForWriting.write(Data(batch.utf8))
            next += 5
            // The save is debounced: once the burst is over, one batch stores it.
            while stored.count < next - 1 {
                let line = try #require(errors.nextLine(), "taskboard ended before storing task \(next - 1)")
                stored.formUnion(Self.storedIDs(line))
            }
        }
        // More adds, then the kill, before their batch could be stored.
        run.input.fileHandleForWriting.write(Data((next..<next + 5).map { "add Late \($0)\n" }.joined().utf8))
        kill(run.process.processIdentifier, SIGKILL)
        run.process.waitUntilExit()
        #expect(run.process.terminationReason == .uncaughtSignal)

        let kept = Set(try StoredBoard.tasks(in: data).map(\.id))
        #expect(stored.count == 20)
        #expect(stored.isSubset(of: kept), "lost: \(stored.subtracting(kept).sorted())")
        #expect(try StoredBoard.integrity(in: data) == ["ok"])
        // The next run opens the board and goes on numbering after the largest reserved number.
        let again = try start(["add", "After the crash"])
        try again.input.fileHandleForWriting.close()
        let output = String(decoding: again.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        again.process.waitUntilExit()
        #expect(again.process.terminationStatus == 0)
        let number = try #require(Self.addedNumber(output, title: "After the crash"))
        #expect(number > kept.max() ?? 0)
    }

    /// The number in `added #N [ ] <title>`.
    private static func addedNumber(_ output: String, title: String) -> Int? {
        guard output.hasPrefix("added #"), output.hasSuffix(" [ ] \(title)\n") else { return nil }
        return Int(output.dropFirst("added #".count).prefix { $0.isNumber })
    }

    /// The ids a `stored a batch in … upserted [1, 2], deleted []` log line names as upserted.
    private static func storedIDs(_ line: String) -> [Int] {
        guard let range = line.range(of: "stored a batch in "),
            let open = line[range.upperBound...].range(of: ": upserted [")
        else { return [] }
        let list = line[open.upperBound...].prefix { $0 != "]" }
        return list.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

/// Reads lines from a pipe as they come; `nil` at the end of the stream.
private final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return String(decoding: line, as: UTF8.self)
            }
            let chunk = handle.availableData
            guard !chunk.isEmpty else { return nil }
            buffer.append(chunk)
        }
    }
}
