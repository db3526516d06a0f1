import Canopy
import Foundation

/// The prompt: read a command, run it, show errors on one line, and go on until `quit` or end of input.
///
/// On a terminal the line is edited in place (``TerminalPrompt``), with a history kept in the data
/// folder; elsewhere lines are read as they come.
enum InteractiveMode {
    static func run(_ session: Session, signals: SignalExit, historyFile: HistoryFile?) async {
        let console = session.console
        let theme = session.theme
        console.line(theme.bold("TaskBoard") + " - type 'help' for the commands, 'quit' or Ctrl-D to leave.")
        let prompt = TerminalPrompt.start(
            console: console,
            history: session.readOnlyReason == nil ? historyFile : nil,
            savedHistory: historyFile?.load() ?? []
        ) { lineWasEmpty in
            Task { await interrupted(session, lineWasEmpty: lineWasEmpty) }
        }
        if let prompt {
            signals.onSignal {
                console.endInput()
                prompt.restore()
            }
        }
        defer { prompt?.restore() }
        let watch = ExternalChangesWatch.start(session)
        defer { watch?.stop() }
        let promptText = "taskboard> "
        var plainLines = prompt == nil ? InputLines.standardInput().makeAsyncIterator() : nil
        while true {
            let line: String?
            watch?.setIdle(true)
            defer { watch?.setIdle(false) }
            if let prompt {
                line = await prompt.readLine(prompt: theme.bold(promptText), width: TerminalText.width(promptText))
            } else {
                console.prompt(theme.bold(promptText))
                line = await plainLines?.next()
                if line == nil { console.line() }
            }
            guard let line else { return }
            do throws(CommandFailure) {
                switch try LineParser.parse(line) {
                case .nothing:
                    continue
                case .help(let topic):
                    console.line(LineParser.help(topic))
                case .quit:
                    return
                case .command(let command):
                    try await session.run(command)
                }
            } catch {
                console.error(error.description)
            }
        }
    }

    /// Ctrl-C: cancels a running sync; on an empty prompt with nothing running, says how to leave.
    private static func interrupted(_ session: Session, lineWasEmpty: Bool) async {
        let sync = await session.board.sync.state.1
        if sync.run.isInProgress {
            // A sync in the foreground shows its own end; one in the background is reported here.
            let inBackground = session.events.takeBackgroundSync()
            await session.board.sync.send(.sync(.cancel))
            if inBackground { session.console.line("\(sync.direction?.rawValue ?? "sync") cancelled (Ctrl-C)") }
        } else if lineWasEmpty {
            session.console.line("(type 'quit' or press Ctrl-D on an empty line to leave)")
        }
    }
}
