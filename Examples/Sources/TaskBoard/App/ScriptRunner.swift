import Foundation

/// Runs commands from a script, one line at a time, stopping at the first error.
enum ScriptRunner {
    /// Runs `lines`; returns `false` after reporting the first line that failed.
    static func run<Lines: AsyncSequence<String, Never>>(
        _ lines: Lines,
        in session: Session,
        echo: Bool,
        name: String
    ) async -> Bool {
        var number = 0
        for await line in lines {
            number += 1
            do throws(CommandFailure) {
                let parsed = try LineParser.parse(line)
                if echo, case .nothing = parsed {
                } else if echo {
                    session.console.line(
                        session.theme.dim("$ ") + session.theme.bold(line.trimmingCharacters(in: .whitespaces))
                    )
                }
                switch parsed {
                case .nothing:
                    continue
                case .help(let topic):
                    session.console.line(LineParser.help(topic))
                case .quit:
                    return true
                case .command(let command):
                    try await session.run(command)
                }
            } catch {
                session.console.error("\(name):\(number): \(error)")
                return false
            }
        }
        return true
    }
}
