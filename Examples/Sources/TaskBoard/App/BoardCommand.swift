import ArgumentParser

/// A TaskBoard command: the same type parses a one-shot command line (`taskboard add Milk`), a line of
/// a script and a line typed at the prompt, and runs against a ``Session``.
protocol BoardCommand: ParsableCommand {
    /// Runs the command. Throws a ``CommandFailure`` to report a problem on one line.
    func execute(in session: Session) async throws(CommandFailure)
}

/// Every command, in the order `help` lists them.
enum BoardCommands {
    static let all: [any BoardCommand.Type] = [
        AddCommand.self, EditCommand.self, DoneCommand.self, ReopenCommand.self, DeleteCommand.self,
        TagCommand.self, UntagCommand.self, DueCommand.self, ListCommand.self, RemindCommand.self,
        ExportCommand.self, ImportCommand.self,
        SearchCommand.self, StatsCommand.self,
        PushCommand.self, PullCommand.self, CancelCommand.self, WaitCommand.self, StatusCommand.self,
        AutoSyncCommand.self,
    ]

    /// The command named `name` (or one of its aliases).
    static func named(_ name: String) -> (any BoardCommand.Type)? {
        all.first { type in
            type.configuration.commandName == name || type.configuration.aliases.contains(name)
        }
    }

    /// Every name and alias, for suggestions.
    static var names: [String] {
        all.flatMap { [$0.configuration.commandName ?? ""] + $0.configuration.aliases } + ["help", "quit"]
    }
}
