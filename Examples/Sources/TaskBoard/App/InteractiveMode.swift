import Canopy
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The prompt: read a command, run it, show errors on one line, and go on until `quit` or end of input.
enum InteractiveMode {
    static func run(_ session: Session) async {
        let console = session.console
        console.line(session.theme.bold("TaskBoard") + " - type 'help' for the commands, 'quit' to leave.")
        let interrupts = InterruptHandler(session: session)
        defer { interrupts.stop() }
        let input = InputLines.standardInput()
        var lines = input.makeAsyncIterator()
        while true {
            console.prompt(session.theme.bold("taskboard> "))
            guard let line = await lines.next() else {
                console.line()
                return
            }
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
}

/// Ctrl-C at the prompt: cancels a running sync, or says how to leave.
private final class InterruptHandler {
    private let source: any DispatchSourceSignal

    init(session: Session) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "taskboard.interrupts"))
        source.setEventHandler {
            Task {
                if await session.board.sync.state.1.run.isInProgress {
                    session.board.sync.dispatch(.sync(.cancel))
                } else {
                    session.console.line()
                    session.console.line("(type 'quit' or press Ctrl-D to leave)")
                    session.console.prompt(session.theme.bold("taskboard> "))
                }
            }
        }
        source.resume()
    }

    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
