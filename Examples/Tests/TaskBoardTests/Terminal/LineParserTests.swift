import ArgumentParser
import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct LineParserTests {
    @Test func splitsWordsLikeAShell() throws {
        #expect(try LineParser.split(#"add "Buy milk" --tag home"#) == ["add", "Buy milk", "--tag", "home"])
        #expect(try LineParser.split(#"edit 1 it\'s 'a "b"'"#) == ["edit", "1", "it's", #"a "b""#])
        #expect(try LineParser.split(#"add """#) == ["add", ""])
        #expect(throws: CommandFailure.self) { try LineParser.split(#"add "open"#) }
    }

    @Test func anApostropheInsideAWordIsNotAQuote() throws {
        #expect(try LineParser.split("add it's mine") == ["add", "it's", "mine"])
        #expect(
            try LineParser.split("add the dogs' bowls --tag home") == ["add", "the", "dogs'", "bowls", "--tag", "home"]
        )
        #expect(try LineParser.split("add 'quoted words' it's") == ["add", "quoted words", "it's"])
        #expect(throws: CommandFailure.self) { try LineParser.split("add 'not closed") }
    }

    @Test func negativeDelaysAndCountsAreRejectedAsNegative() throws {
        let delay = #expect(throws: CommandFailure.self) { try LineParser.parse("remind 1 -5s") }
        #expect(delay?.message == "the delay must not be negative, not '-5s'; say how long from now, like 5m")
        let top = #expect(throws: CommandFailure.self) { try LineParser.parse("stats --top -1") }
        #expect(top?.message == "--top must not be negative, not -1; give a number from 1 to 50")
        guard case .command(let remind) = try LineParser.parse("remind 1 5s") else {
            Issue.record("expected a command")
            return
        }
        #expect((remind as? RemindCommand)?.delay == "5s")
        #expect(throws: CommandFailure.self) { try LineParser.parse("remind 1") }
        #expect(throws: CommandFailure.self) { try LineParser.parse("remind 1 5s 6s") }
    }

    @Test func globalOptionsRejectNegativeValuesAndAnEmptyDataFolder() {
        for (arguments, message) in [
            (["--latency", "-1"], "--latency must not be negative (it takes seconds), not -1"),
            (["--retry-delay", "-0.5"], "--retry-delay must not be negative (it takes seconds), not -0.5"),
            (["--fail-first", "-2"], "--fail-first must not be negative (it takes a count), not -2"),
            (["--lock-wait", "-1"], "--lock-wait must not be negative (it takes seconds), not -1"),
            (["--lock-wait", "601"], "--lock-wait takes seconds from 0 to 600, not 601.0"),
            (
                ["--data-dir", ""],
                "--data-dir needs a folder; an empty path would mean the current folder, so name it ('--data-dir .')"
            ),
        ] {
            do {
                _ = try GlobalOptions.parse(arguments)
                Issue.record("\(arguments) was accepted")
            } catch {
                #expect(GlobalOptions.message(for: error) == message)
            }
        }
    }

    @Test func parsesCommandsAndAliases() throws {
        guard case .command(let command) = try LineParser.parse("add Buy milk -t home --due +2d") else {
            Issue.record("expected a command")
            return
        }
        let add = try #require(command as? AddCommand)
        #expect(add.title == ["Buy", "milk"])
        #expect(add.tag == ["home"])
        #expect(add.due == .daysFromToday(2))
        guard case .command(let list) = try LineParser.parse("ls --open") else {
            Issue.record("expected a command")
            return
        }
        #expect((list as? ListCommand)?.filter == TaskFilter(status: .open))
    }

    @Test func blankLinesCommentsHelpAndQuit() throws {
        #expect(describe(try LineParser.parse("   # a comment")) == "nothing")
        #expect(describe(try LineParser.parse("help")) == "help nil")
        #expect(describe(try LineParser.parse("help add")) == "help add")
        #expect(describe(try LineParser.parse("add --help")) == "help add")
        #expect(describe(try LineParser.parse("quit")) == "quit")
    }

    @Test func anUnknownCommandSuggestsTheClosestOne() {
        #expect(throws: CommandFailure("unknown command 'lst'", hint: "did you mean 'list'? 'help' lists the commands"))
        {
            try LineParser.parse("lst --open")
        }
        #expect(throws: CommandFailure("unknown command 'frobnicate'", hint: "'help' lists the commands")) {
            try LineParser.parse("frobnicate")
        }
    }

    @Test func badArgumentsExplainTheUsage() throws {
        do {
            _ = try LineParser.parse("done first")
            Issue.record("expected a failure")
        } catch {
            #expect(error.message.contains("first"))
            #expect(error.hint?.hasPrefix("usage: done <ids> ...") == true)
            #expect(error.hint?.hasSuffix("'help done' explains") == true)
        }
        #expect(throws: CommandFailure.self) { try LineParser.parse("list --open --done") }
        #expect(throws: CommandFailure.self) { try LineParser.parse("add Milk --tag 'two words'") }
    }

    @Test func helpListsEveryCommand() {
        let help = LineParser.help(nil)
        for type in BoardCommands.all {
            #expect(help.contains(type.configuration.commandName ?? "?"))
        }
    }

    private func describe(_ parsed: LineParser.Parsed) -> String {
        switch parsed {
        case .nothing: "nothing"
        case .help(let topic): "help \(topic ?? "nil")"
        case .quit: "quit"
        case .command(let command): "command \(type(of: command))"
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct EditDistanceTests {
    @Test(arguments: [
        ("list", "list", 0), ("lsit", "list", 1), ("lst", "list", 1), ("edit", "lsit", 2), ("", "add", 3),
    ])
    func countsEditsAndSwaps(lhs: String, rhs: String, distance: Int) {
        #expect(LineParser.distance(lhs, rhs) == distance)
    }
}
