import ArgumentParser
import Canopy

/// `stats [--top <n>]`
struct StatsCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show counts, completion, overdue tasks and the most used tags."
    )

    // `.unconditional` so that `--top -1` reaches `validate()` instead of reading `-1` as an option.
    @Option(parsing: .unconditional, help: "How many tags the histogram shows (1-50).")
    var top: Int?

    func validate() throws {
        if let top, top < 0 {
            throw ValidationError("--top must not be negative, not \(top); give a number from 1 to 50")
        }
        if let top, !StatsState.topTagsRange.contains(top) {
            throw ValidationError("--top takes a number from 1 to 50, not \(top)")
        }
    }

    func execute(in session: Session) async throws(CommandFailure) {
        if let top {
            await session.board.stats.send(.stats(.showTopTags(top)))
        }
        let props = await session.statsProps()
        session.console.lines(StatsView(theme: session.theme).lines(props))
    }
}
