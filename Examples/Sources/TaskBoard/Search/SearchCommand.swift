import ArgumentParser
import Canopy

/// `search [<query>...] [--no-wait] [--clear]`
struct SearchCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search task titles and tags; matches are highlighted.",
        discussion: """
            Words must all match: in the title (any case), or as the start of a tag; #tag matches a tag \
            exactly. The search starts once the query has not changed for a moment; a new query cancels \
            the one before. With --no-wait the query is set as if typed, and 'search' alone shows the \
            results.
            """,
        aliases: ["find"]
    )

    @Argument(help: "The query; leave it out to show the results of the current one.")
    var query: [String] = []

    @Flag(help: "Set the query and return at once, like a keystroke.")
    var noWait = false

    @Flag(help: "Forget the query and its results.")
    var clear = false

    func validate() throws {
        if clear && !query.isEmpty { throw ValidationError("--clear takes no query") }
        if noWait && query.isEmpty { throw ValidationError("--no-wait needs a query") }
    }

    func execute(in session: Session) async throws(CommandFailure) {
        let store = session.board.search
        if clear {
            await store.send(.search(.clear))
            session.console.line("search cleared")
            return
        }
        var state = await store.state.1
        if !query.isEmpty {
            state = await store.send(.search(.setQuery(query.joined(separator: " ")))).1
            guard !noWait else { return }
        }
        guard state.phase != .idle else {
            throw CommandFailure("there is no query yet", hint: "try 'search milk'")
        }
        let serial = state.request.serial
        for await (tasks, search) in store.states() {
            guard search.request.serial == serial else { return }
            guard let results = search.results else { continue }
            let view = SearchView(theme: session.theme)
            session.console.lines(
                view.lines(results, tasks: Array(tasks.1.items), superseded: search.supersededByResults)
            )
            return
        }
    }
}
