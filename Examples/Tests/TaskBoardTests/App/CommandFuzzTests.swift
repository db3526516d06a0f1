import ArgumentParser
import Foundation
import Testing

@testable import TaskBoard

/// Drives the command parser and a session with thousands of random lines: extreme and malformed
/// numbers, durations and dates at the ends of the calendar, unicode, control and bidirectional
/// characters, very long words, stray quotes and options. Nothing may crash, and the board afterwards
/// must be one that every way of storing it reads back.
///
/// The seed is fixed, so a failure repeats; the line that was running is in the failure's message.
@Suite(.timeLimit(.minutes(1))) struct CommandFuzzTests {
    /// Commands that change or show the board and finish on their own. The others wait for the clock
    /// (search, stats, sync on the test's `ManualScheduler`) or write files (`export <file>`); their
    /// lines are still parsed.
    private static let runnable = [
        "add", "new", "edit", "rename", "done", "complete", "reopen", "undo", "delete", "rm", "tag", "untag",
        "due", "list", "ls", "remind",
    ]

    private static let words: [String] = [
        // Numbers at and past every limit.
        "0", "1", "2", "3", "-1", "-0", "+1", "999999999", "1000000000", "9223372036854775807",
        "-9223372036854775808", "9223372036854775808", "99999999999999999999", "1e308", "-1e308", "1e-308",
        "nan", "NaN", "inf", "-inf", "0x10", "1.5", "1_000", "٣",
        // Durations.
        "90", "90s", "1.5s", "5m", "2h", "168h", "169h", "-5s", "1e308s", "99999999999h", "s", "m",
        // Dates, relative and absolute, at the ends of the calendar.
        "today", "tomorrow", "yesterday", "none", "never", "-", "+3d", "-1d", "+36500d", "-36500d", "+36501d",
        "+9223372036854775807d", "-9223372036854775808", "9999-12-31", "0001-01-01", "10000-01-01",
        "0000-01-01", "2025-02-30", "2024-02-29", "99999-12-31", "+999-01-01", "2025-3-4", "２０２５-０３-１４",
        // Options, known and not.
        "--due", "--tag", "-t", "--open", "--done", "--overdue", "--top", "--json", "--help", "-h", "--", "--x",
        "-x", "--due=+1d", "--tag=home",
        // Tags and words.
        "home", "#home", "#Home", "work/q3", "a-b_c", "日本", "Buy", "milk", "it's", "'quoted words'",
        "\"double\"", "\"open", "'open", "back\\slash", "trailing\\",
        // Unicode, control and bidirectional characters.
        "👨‍👩‍👧", "e\u{301}", "\u{202E}gnp.exe", "\u{2066}isolate\u{2069}", "\u{200F}", "\u{1B}[31mred",
        "tab\there", "bell\u{7}", "nul\u{0}byte", "\u{85}", "\u{FEFF}", "\u{200B}", "עברית", "العربية",
        "\u{10FFFF}", "\u{E000}",
    ]

    private static let commands = BoardCommands.names + ["", "lst", "ADD", "help", "quit", "#", "\u{202E}add"]

    private static func pick<Element>(_ elements: [Element], _ random: inout SeededGenerator) -> Element {
        elements[Int.random(in: 0..<elements.count, using: &random)]
    }

    private static func randomWord(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0:
            // A very long word: past the title limit, or just under it.
            String(repeating: pick(["a", "日", "👍🏽"], &random), count: pick([3_999, 4_001, 20_000], &random))
        case 1:
            // Random scalars, controls and surrogates' neighbours included.
            String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 1...8, using: &random)).compactMap { _ in
                        Unicode.Scalar(UInt32.random(in: 0...0x10FFFF, using: &random))
                    }
                )
            )
        default:
            pick(words, &random)
        }
    }

    private static func randomLine(_ random: inout SeededGenerator) -> String {
        // Mostly a command that runs, so that the session sees many lines, not only the parser.
        var parts = [Int.random(in: 0..<3, using: &random) == 0 ? pick(commands, &random) : pick(runnable, &random)]
        // Mostly an id first, so that commands reach the tasks often.
        if Bool.random(using: &random) { parts.append(String(Int.random(in: 1...6, using: &random))) }
        for _ in 0..<Int.random(in: 0...4, using: &random) { parts.append(randomWord(&random)) }
        return parts.joined(separator: pick([" ", " ", "  ", "\t"], &random))
    }

    @Test func thousandsOfRandomLinesNeverCrashAndLeaveAReadableBoard() async throws {
        var random = SeededGenerator(seed: 33)
        let test = TestBoard()
        let captured = CapturedConsole()
        let session = Session(board: test.board, console: captured.console, mode: .script) { TestBoard.day }
        var (parsed, ran, succeeded) = (0, 0, 0)
        for _ in 0..<2_000 {
            let line = Self.randomLine(&random)
            let command: any BoardCommand
            do {
                guard case .command(let parsedCommand) = try LineParser.parse(line) else { continue }
                command = parsedCommand
            } catch {
                #expect(!error.message.isEmpty, "\(line)")
                continue
            }
            parsed += 1
            guard let name = type(of: command).configuration.commandName, Self.runnable.contains(name) else {
                continue
            }
            ran += 1
            do {
                try await session.run(command)
                succeeded += 1
            } catch {
                #expect(!error.message.isEmpty, "\(line)")
            }
        }
        // The lines reached every stage, not only the parser's errors.
        #expect(parsed > 300)
        #expect(ran > 300)
        #expect(succeeded > 100)

        let tasks = await session.tasks()
        #expect(!tasks.items.isEmpty)
        for task in tasks.items {
            #expect(TaskItem.ids.contains(task.id))
            #expect(task.title.count <= TaskRules.longestTitle)
            #expect(task.due?.isInRange ?? true, "#\(task.id) is due \(String(describing: task.due))")
            // A database row of it reads back as the same task.
            #expect(try TaskRow(task).task() == task)
        }
        // A JSON file of the board reads back as the same board.
        let json = try JSONFile<TasksSnapshot>.encode(tasks.snapshot)
        let decoded = try JSONDecoder().decode(TasksSnapshot.self, from: json).validated()
        #expect(decoded.tasks == Array(tasks.items))
        // And it lists, with every control character escaped.
        let listed = CapturedConsole()
        let lister = Session(board: test.board, console: listed.console, mode: .script) { TestBoard.day }
        try await lister.run(ListCommand.parse([]))
        #expect(listed.output.hasPrefix("\(tasks.items.count) task"))
        #expect(!listed.output.unicodeScalars.contains { $0 != "\n" && TerminalText.isControl($0) })
        // Everything the script changed reaches the writer.
        #expect(await session.finish())
        #expect(test.writer.stored == Array(tasks.items))
    }
}
