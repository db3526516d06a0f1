import ArgumentParser
import Canopy
import Foundation

/// The run `taskboard` makes when standard input is not a terminal (CI, a pipe): a short script on a
/// temporary board that shows each feature, including a push that fails once and is retried.
enum Demo {
    static let script = """
        # Tasks: add, tag, due dates, complete, filters.
        add Buy milk --tag home --tag errands --due today
        add Write the quarterly report --tag work --due -2d
        add Fix the bike --tag home
        add Plan the team offsite --tag work --tag planning --due +7d
        done 3
        list --open
        list --overdue
        list --tag work
        # Search: the first two queries are replaced before their debounce ends, and cancelled.
        search --no-wait b
        search --no-wait bi
        search bike
        search report #work
        # Stats: props computed on the presentation queue, delivered through a debounced subscription.
        stats
        # Sync: the remote fails the first call; the push is retried after a backoff.
        push
        pull
        # Cancel: a push started in the background is cancelled while its call is in flight.
        push --background
        cancel
        status
        """

    /// The demo's settings: a quick remote whose first call fails, and short retry delays.
    static func options(dataDir: String, logLevel: LogLevel = .warning) throws(CommandFailure) -> GlobalOptions {
        let arguments = [
            "--data-dir", dataDir, "--latency", "0.2", "--fail-first", "1", "--seed", "1", "--attempts", "3",
            "--retry-delay", "0.5",
        ]
        do {
            var options = try GlobalOptions.parse(arguments)
            options.logLevel = logLevel
            return options
        } catch {
            throw CommandFailure("the demo's options are invalid: \(GlobalOptions.message(for: error))")
        }
    }

    static func run(console: Console, logLevel: LogLevel = .warning) async -> Bool {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("taskboard-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        console.line(console.theme.bold("TaskBoard demo") + " on a temporary board (\(folder.path))")
        console.line(
            "standard input is not a terminal, so this is the built-in demo; see 'taskboard --help' for more."
        )
        console.line()
        do throws(CommandFailure) {
            let options = try options(dataDir: folder.path, logLevel: logLevel)
            let session = try Launcher.session(options, console: console, mode: .script)
            let reporting = session.reportBackgroundEvents()
            defer { for subscription in reporting { subscription.cancel() } }
            let succeeded = await ScriptRunner.run(InputLines.lines(of: script), in: session, echo: true, name: "demo")
            let saved = await session.finish()
            if succeeded && saved {
                console.line()
                console.line("the board was saved in \(folder.path); the demo removes it now")
            }
            return succeeded && saved
        } catch {
            console.error(error.description)
            return false
        }
    }
}
