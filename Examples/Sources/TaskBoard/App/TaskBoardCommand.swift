import ArgumentParser
import Canopy
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `taskboard`: with a command, runs it and exits (`taskboard add Buy milk --tag home`); with
/// `--script`, runs a script; with nothing, opens the prompt on a terminal, or runs the demo elsewhere.
@main
struct TaskBoardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "taskboard",
        abstract: "A task board for the terminal, built as a tree of Canopy stores.",
        discussion: """
            Without a command, TaskBoard opens its prompt when standard input is a terminal, and runs a \
            short demo on a temporary board otherwise. The commands are the same on the command line, at \
            the prompt and in scripts.
            """,
        subcommands: BoardCommands.all.map(oneShot) + [ReplayCommand.self]
    )

    @OptionGroup var options: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "Run the commands in this file ('-' for standard input), stopping at the first error.",
            valueName: "file"
        )
    )
    var script: String?

    @Flag(help: "Print each script command before running it.")
    var echo = false

    @Flag(help: "Run the demo even on a terminal.")
    var demo = false

    func run() async throws {
        let console = Console.standard()
        if demo || (script == nil && isatty(STDIN_FILENO) != 1) {
            guard await Demo.run(console: console, logLevel: options.logLevel) else { throw ExitCode.failure }
            return
        }
        let session: Session
        do {
            session = try Launcher.session(options, console: console, mode: script == nil ? .interactive : .script)
        } catch {
            console.error(error.description)
            throw ExitCode.failure
        }
        let signals = SignalExit(session: session)
        let reporting = session.reportBackgroundEvents()
        defer { for subscription in reporting { subscription.cancel() } }
        guard let script else {
            await InteractiveMode.run(session, signals: signals, historyFile: options.dataDirectory.historyFile)
            await signals.holdIfExiting()
            let saved = await session.finish()
            await signals.holdIfExiting()
            guard session.stopRecording(), saved, !session.movedAside else { throw ExitCode.failure }
            return
        }
        let succeeded: Bool
        do {
            let lines = script == "-" ? InputLines.standardInput() : try InputLines.file(script)
            succeeded = await ScriptRunner.run(lines, in: session, echo: echo, name: script == "-" ? "stdin" : script)
        } catch {
            console.error(error.description)
            succeeded = false
        }
        await signals.holdIfExiting()
        let saved = await session.finish()
        await signals.holdIfExiting()
        guard session.stopRecording(), succeeded && saved && !session.movedAside else { throw ExitCode.failure }
    }
}

/// The one-shot form of a command type.
private func oneShot(_ type: any BoardCommand.Type) -> any ParsableCommand.Type {
    func wrap<Command: BoardCommand>(_ type: Command.Type) -> any ParsableCommand.Type {
        OneShot<Command>.self
    }
    return wrap(type)
}

/// One command run from the command line: opens the board, runs the command, saves, and exits non-zero
/// if anything failed.
struct OneShot<Command: BoardCommand>: AsyncParsableCommand {
    static var configuration: CommandConfiguration { Command.configuration }

    @OptionGroup(visibility: .hidden) var options: GlobalOptions
    @OptionGroup var command: Command

    func run() async throws {
        let console = Console.standard()
        let session: Session
        do {
            session = try Launcher.session(options, console: console, mode: .oneShot)
        } catch {
            console.error(error.description)
            throw ExitCode.failure
        }
        let signals = SignalExit(session: session)
        let reporting = session.reportBackgroundEvents()
        defer { for subscription in reporting { subscription.cancel() } }
        var failed = false
        do {
            try await session.run(command)
        } catch {
            console.error(error.description)
            failed = true
        }
        await signals.holdIfExiting()
        let saved = await session.finish()
        await signals.holdIfExiting()
        // A file moved aside fails the run too, so that a script does not carry on as if all was well.
        if !session.stopRecording() || failed || !saved || session.movedAside { throw ExitCode.failure }
    }
}
