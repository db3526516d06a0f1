import Foundation
import Testing

@testable import Canopy

/// The action log's reader fed with seeded, mutated logs: a typed error naming a line of the log, or a
/// log whose entries keep their rules; never a crash.
@Suite(.timeLimit(.minutes(1))) struct ActionLogDecodingFuzzTests {
    /// A log as a recorder writes it: the header, then one entry per line.
    static func validLog(using random: inout SplitMix64) -> Data {
        var text = #"{"app":"fuzz","canopyActionLog":1}"# + "\n"
        for index in 0..<random.next(below: 8) {
            let path = (0..<random.next(below: 3)).map { _ in "/\(random.next(below: 4))" }.joined()
            text += #"{"action":\#(random.next(below: 1_000)),"store":"root\#(path)","time":\#(index)}"# + "\n"
        }
        return Data(text.utf8)
    }

    /// What mutations insert: JSON syntax, the letters of its literals, store paths and newlines.
    static let alphabet = "{}[]\":,-./0123456789eEtrufalsnop \\\n"

    /// What is wrong with the outcome of reading `data`, or `nil`.
    static func check(_ data: Data) -> String? {
        let lineCount = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        do {
            let log = try ActionLog<Int>(data: data)
            var previous = 1
            for entry in log.entries {
                guard entry.line > previous else { return "entry lines out of order: \(entry.line) after \(previous)" }
                guard entry.store.path.allSatisfy({ $0 >= 0 }) else { return "a store path with a negative index" }
                previous = entry.line
            }
            if let truncation = log.truncation, case .truncatedLine(let line) = truncation, line > lineCount {
                return "truncation at line \(line) of \(lineCount)"
            }
            return nil
        } catch {
            guard let line = error.line else { return nil }
            return (1...lineCount).contains(line) ? nil : "error names line \(line) of \(lineCount): \(error)"
        }
    }

    @Test func mutatedLogsGiveATypedErrorOrEntriesThatKeepTheirRules() {
        var random = SplitMix64(seed: 2_026)
        var problems: [String] = []
        for index in 0..<2_000 {
            var data = Self.validLog(using: &random)
            if index % 4 != 0 {
                data = corrupt(data, alphabet: Self.alphabet, using: &random)
            }
            if let problem = Self.check(data) {
                problems.append("input #\(index): \(problem)\n\(String(decoding: data, as: UTF8.self))")
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(3).joined(separator: "\n\n"))")
    }

    @Test func randomBytesAreNotALog() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let bytes = (0..<random.next(below: 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(throws: ActionLogError.self) { try ActionLog<Int>(data: Data(bytes)) }
        }
    }
}
