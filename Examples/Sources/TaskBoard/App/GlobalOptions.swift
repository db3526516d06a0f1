import ArgumentParser
import Canopy
import Foundation

/// The options every way of running TaskBoard shares: where the board lives, and how the simulated
/// remote and the retries behave.
struct GlobalOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The folder of tasks.sqlite (default: $XDG_DATA_HOME/taskboard or ~/.local/share/taskboard).",
            valueName: "path"
        )
    )
    var dataDir: String?

    // `.unconditional` so that `--latency -1` reaches `validate()`, which says what is wrong with it,
    // instead of reading `-1` as an option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds each call to the remote takes.", valueName: "seconds"))
    var latency = 0.3

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The probability, from 0 to 1, that a call to the remote fails.", valueName: "probability")
    )
    var failRate = 0.0

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Make the first <n> calls to the remote fail, to see retries.", valueName: "n")
    )
    var failFirst = 0

    @Option(help: ArgumentHelp("Seed the remote's failures, to repeat a run exactly.", valueName: "n"))
    var seed: UInt64?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Attempts per push or pull, the first included.", valueName: "n")
    )
    var attempts = 4

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds before the first retry; each later retry waits twice as long, at most 8 times more.",
            valueName: "seconds"
        )
    )
    var retryDelay = 1.0

    @Option(
        help: ArgumentHelp(
            "Pretend today is this date (YYYY-MM-DD), for due dates and overdue tasks.",
            valueName: "date"
        )
    )
    var today: String?

    @Option(
        help: ArgumentHelp(
            "Record every action of this run to <file>, an action log that 'taskboard replay <file>' replays.",
            valueName: "file"
        )
    )
    var record: String?

    @Option(
        help: ArgumentHelp(
            "What the store tree logs on standard error: trace, debug, info, notice, warning, error or critical.",
            valueName: "level"
        )
    )
    var logLevel = LogLevel.warning

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a write waits for another TaskBoard process that holds the board before it fails.",
            valueName: "seconds"
        )
    )
    var lockWait = TaskDatabase.Options().busyTimeout

    func validate() throws {
        if let record, record.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--record needs a file to write the action log to")
        }
        if let dataDir, dataDir.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError(
                "--data-dir needs a folder; an empty path would mean the current folder, so name it ('--data-dir .')"
            )
        }
        try Self.rejectNegative("--latency", latency, unit: "seconds")
        try Self.rejectNegative("--fail-rate", failRate, unit: "a probability")
        try Self.rejectNegative("--fail-first", Double(failFirst), unit: "a count")
        try Self.rejectNegative("--attempts", Double(attempts), unit: "a count")
        try Self.rejectNegative("--retry-delay", retryDelay, unit: "seconds")
        try Self.rejectNegative("--lock-wait", lockWait, unit: "seconds")
        guard latency.isFinite, (0...60).contains(latency) else {
            throw ValidationError("--latency takes seconds from 0 to 60, not \(latency)")
        }
        guard failRate.isFinite, (0...1).contains(failRate) else {
            throw ValidationError("--fail-rate takes a probability from 0 to 1, such as 0.3, not \(failRate)")
        }
        guard failFirst >= 0 else { throw ValidationError("--fail-first takes 0 or more, not \(failFirst)") }
        guard (1...20).contains(attempts) else {
            throw ValidationError("--attempts takes a number from 1 to 20, not \(attempts)")
        }
        guard retryDelay.isFinite, (0...60).contains(retryDelay) else {
            throw ValidationError("--retry-delay takes seconds from 0 to 60, not \(retryDelay)")
        }
        guard lockWait.isFinite, (0...600).contains(lockWait) else {
            throw ValidationError("--lock-wait takes seconds from 0 to 600, not \(lockWait)")
        }
        if let today {
            guard let day = Day(iso: today) else {
                throw ValidationError("--today takes a date like 2025-03-14, not '\(today)'")
            }
            guard day.isInRange else {
                throw ValidationError("--today takes a date up to \(Day.last), not '\(today)'")
            }
        }
    }

    /// Throws "must not be negative" for a negative `value`, so that the message says what is wrong.
    static func rejectNegative(_ option: String, _ value: Double, unit: String) throws {
        if value < 0 {
            throw ValidationError("\(option) must not be negative (it takes \(unit)), not \(formatted(value))")
        }
    }

    /// `-1` rather than `-1.0`.
    static func formatted(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }

    /// The folder `--data-dir` names, or else the one the dependencies give.
    var dataDirectory: DataDirectory {
        guard let dataDir else { return Dependency[\.dataDirectory] }
        let expanded = (dataDir as NSString).expandingTildeInPath
        return DataDirectory(url: URL(fileURLWithPath: expanded, isDirectory: true))
    }

    var remote: RemoteService.Configuration {
        var configuration = RemoteService.Configuration()
        configuration.latency = latency
        configuration.failureRate = failRate
        configuration.failFirst = failFirst
        if let seed { configuration.seed = seed }
        return configuration
    }

    var sync: SyncState.Settings {
        var settings = SyncState.Settings()
        settings.maxAttempts = attempts
        settings.retryPolicy = .init(baseDelay: retryDelay, multiplier: 2, maxDelay: retryDelay * 8)
        return settings
    }

    /// Today, or the day `--today` gives.
    var todayProvider: @Sendable () -> Day {
        if let fixed = today.flatMap(Day.init(iso:)) { return { fixed } }
        return { Day(Date()) }
    }
}
