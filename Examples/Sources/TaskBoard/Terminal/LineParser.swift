import ArgumentParser
import Foundation

/// Turns a line typed at the prompt or read from a script into a command.
///
/// The words of a line are split like a shell does (quotes group words, a backslash escapes the next
/// character), then parsed by the same command types as the command line, so `add "Buy milk" --tag
/// home` means the same thing everywhere.
enum LineParser {
    enum Parsed {
        /// A blank line or a comment (`# ...`).
        case nothing
        /// `help`, or `help <command>`.
        case help(topic: String?)
        case quit
        case command(any BoardCommand)
    }

    static func parse(_ line: String) throws(CommandFailure) -> Parsed {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return .nothing }
        let words = try split(trimmed)
        guard let name = words.first else { return .nothing }
        switch name {
        case "help", "?":
            if let topic = words.dropFirst().first, BoardCommands.named(topic) == nil {
                throw unknown(topic)
            }
            return .help(topic: words.dropFirst().first)
        case "quit", "exit":
            return .quit
        default:
            break
        }
        guard let type = BoardCommands.named(name) else { throw unknown(name) }
        let parsed: any ParsableCommand
        do {
            // Parsed by the command's own type: the root would first build the arguments of every
            // command, which takes most of a line's time.
            parsed = try type.parseAsRoot(Array(words.dropFirst()))
        } catch {
            let usage = type.usageString().replacingOccurrences(of: "\n", with: " ")
            throw CommandFailure(
                LineCommands.message(for: error),
                hint: "usage: \(usage); 'help \(type.configuration.commandName ?? name)' explains"
            )
        }
        guard let command = parsed as? any BoardCommand else {
            return .help(topic: type.configuration.commandName)
        }
        return .command(command)
    }

    /// Splits a line into words: spaces separate them, quotes group them, `\` escapes one character.
    ///
    /// A `'` inside a word is an apostrophe, not a quote (`add it's mine`); only one that starts a word
    /// opens a quote.
    static func split(_ line: String) throws(CommandFailure) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
                inWord = true
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || (character == "'" && !inWord) {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if let quote { throw CommandFailure("a \(quote) quote is not closed", hint: "close it at the end of the text") }
        if escaped { word.append("\\") }
        if inWord { words.append(word) }
        return words
    }

    /// The help text: every command with its summary, or one command in full.
    static func help(_ topic: String?) -> String {
        if let topic, let type = BoardCommands.named(topic) {
            return LineCommands.helpMessage(for: type).trimmingCharacters(in: .newlines)
        }
        var lines = ["commands:"]
        var entries: [(name: String, abstract: String)] = []
        for type in BoardCommands.all {
            let configuration = type.configuration
            entries.append((configuration.commandName ?? "", configuration.abstract))
        }
        let width = entries.map { $0.name.count }.max() ?? 0
        for entry in entries {
            lines.append("  \(entry.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(entry.abstract)")
        }
        lines.append(
            "  \("help".padding(toLength: width, withPad: " ", startingAt: 0))  Show this list, or 'help <command>'."
        )
        lines.append("  \("quit".padding(toLength: width, withPad: " ", startingAt: 0))  Leave (Ctrl-D works too).")
        return lines.joined(separator: "\n")
    }

    private static func unknown(_ name: String) -> CommandFailure {
        if let suggestion = closest(to: name) {
            return CommandFailure(
                "unknown command '\(name)'",
                hint: "did you mean '\(suggestion)'? 'help' lists the commands"
            )
        }
        return CommandFailure("unknown command '\(name)'", hint: "'help' lists the commands")
    }

    /// The command name closest to `name`, if it is close enough to be a typo.
    static func closest(to name: String) -> String? {
        let length = name.count
        let limit = length <= 3 ? 1 : 2
        // Words that differ in length by more than the limit are that many edits apart at least: they are
        // not measured, so a long pasted word costs no table of its length times each name's.
        let candidates = BoardCommands.names.filter { abs($0.count - length) <= limit }
            .map { ($0, distance(name.lowercased(), $0)) }
        guard let best = candidates.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// The edit distance between two words: insertions, deletions, substitutions, and swaps of two
    /// neighbouring letters (`lsit` is one step from `list`).
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        var table = Array(repeating: Array(repeating: 0, count: right.count + 1), count: left.count + 1)
        for i in 0...left.count { table[i][0] = i }
        for j in 0...right.count { table[0][j] = j }
        for i in stride(from: 1, through: left.count, by: 1) {
            for j in stride(from: 1, through: right.count, by: 1) {
                let cost = left[i - 1] == right[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[left.count][right.count]
    }
}

/// The root that line commands are parsed against.
struct LineCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskboard",
        subcommands: BoardCommands.all.map { $0 as any ParsableCommand.Type }
    )
}
