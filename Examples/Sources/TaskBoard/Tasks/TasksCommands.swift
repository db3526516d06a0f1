import ArgumentParser
import Canopy

/// `add <title> [--tag <tag>]... [--due <date>]`
struct AddCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a task.",
        discussion: "Example: add Buy milk --tag home --due tomorrow",
        aliases: ["new"]
    )

    @Argument(help: "The title; several words need no quotes.")
    var title: [String]

    @Option(name: [.short, .long], help: "A tag for the task; repeat for more.")
    var tag: [String] = []

    @Option(
        name: .long,
        parsing: .unconditional,
        help: ArgumentHelp("The due date: YYYY-MM-DD, today, tomorrow, +3d, -1d.", valueName: "date")
    )
    var due: DueInput?

    func validate() throws {
        try TaskArguments.validate(tags: tag)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        let today = await session.board.root.state.today
        let dueDay = try due?.resolve(today: today)
        var action = TasksAction.add(title: title.joined(separator: " "), tags: tag, due: dueDay)
        // The number comes from the database, so that another TaskBoard on the folder never gives it
        // too; a title the rules refuse does not use one up.
        if TaskRules.problem(with: .tasks(action)) == nil, let id = try await session.reserveID() {
            action = .add(title: title.joined(separator: " "), tags: tag, due: dueDay, id: id)
        }
        let event = try await session.change(action)
        try await TaskArguments.report(event, verb: "added", in: session)
    }
}

/// `edit <id> <title>`
struct EditCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change the title of a task.",
        aliases: ["rename"]
    )

    @Argument(help: "The task number.")
    var id: Int

    @Argument(help: "The new title.")
    var title: [String]

    func validate() throws {
        try TaskArguments.validate(ids: [id])
    }

    func execute(in session: Session) async throws(CommandFailure) {
        let event = try await session.change(.rename(id: id, title: title.joined(separator: " ")))
        try await TaskArguments.report(event, verb: "renamed", in: session)
    }
}

/// `done <id>...`
struct DoneCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "done",
        abstract: "Mark tasks as done.",
        aliases: ["complete"]
    )

    // `.allUnrecognized` so that `-1` reaches `validate()`, which names the range, instead of being read
    // as an unknown option.
    @Argument(parsing: .allUnrecognized, help: "The task numbers.")
    var ids: [Int]

    func validate() throws {
        try TaskArguments.validate(ids: ids)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        for id in ids {
            try await TaskArguments.report(await session.change(.complete(id: id)), verb: "done", in: session)
        }
    }
}

/// `reopen <id>...`
struct ReopenCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "reopen",
        abstract: "Mark done tasks as open again.",
        aliases: ["undo"]
    )

    // `.allUnrecognized` so that `-1` reaches `validate()`, which names the range, instead of being read
    // as an unknown option.
    @Argument(parsing: .allUnrecognized, help: "The task numbers.")
    var ids: [Int]

    func validate() throws {
        try TaskArguments.validate(ids: ids)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        for id in ids {
            try await TaskArguments.report(await session.change(.reopen(id: id)), verb: "reopened", in: session)
        }
    }
}

/// `delete <id>...`
struct DeleteCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete tasks.",
        aliases: ["rm"]
    )

    // `.allUnrecognized` so that `-1` reaches `validate()`, which names the range, instead of being read
    // as an unknown option.
    @Argument(parsing: .allUnrecognized, help: "The task numbers.")
    var ids: [Int]

    func validate() throws {
        try TaskArguments.validate(ids: ids)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        for id in ids {
            try await TaskArguments.report(await session.change(.delete(id: id)), verb: "deleted", in: session)
        }
    }
}

/// `tag <id> <tag>...`
struct TagCommand: BoardCommand {
    static let configuration = CommandConfiguration(commandName: "tag", abstract: "Add tags to a task.")

    @Argument(help: "The task number.")
    var id: Int

    // `.allUnrecognized` so that `-x` reaches `validate()`, which says why it is not a tag.
    @Argument(parsing: .allUnrecognized, help: "The tags, with or without #.")
    var tags: [String]

    func validate() throws {
        try TaskArguments.validate(ids: [id])
        guard !tags.isEmpty else { throw ValidationError("name a tag, like home or work/q3") }
        try TaskArguments.validate(tags: tags)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        try await TaskArguments.report(await session.change(.tag(id: id, tags: tags)), verb: "tagged", in: session)
    }
}

/// `untag <id> <tag>...`
struct UntagCommand: BoardCommand {
    static let configuration = CommandConfiguration(commandName: "untag", abstract: "Remove tags from a task.")

    @Argument(help: "The task number.")
    var id: Int

    // `.allUnrecognized` so that `-x` reaches `validate()`, which says why it is not a tag.
    @Argument(parsing: .allUnrecognized, help: "The tags, with or without #.")
    var tags: [String]

    func validate() throws {
        try TaskArguments.validate(ids: [id])
        guard !tags.isEmpty else { throw ValidationError("name a tag, like home or work/q3") }
        try TaskArguments.validate(tags: tags)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        try await TaskArguments.report(await session.change(.untag(id: id, tags: tags)), verb: "untagged", in: session)
    }
}

/// `due <id> <date>`
struct DueCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "due",
        abstract: "Set or clear the due date of a task.",
        discussion: "Example: due 3 +2d, due 3 2025-06-01, due 3 none"
    )

    @Argument(help: "The task number.")
    var id: Int

    // `.allUnrecognized` so that `-1d` is a date rather than an unknown option; `validate()` takes
    // exactly one.
    @Argument(
        parsing: .allUnrecognized,
        help: ArgumentHelp("YYYY-MM-DD, today, tomorrow, +3d, -1d, or none.", valueName: "date")
    )
    var dates: [DueInput]

    func validate() throws {
        try TaskArguments.validate(ids: [id])
        guard dates.count == 1 else {
            throw ValidationError(dates.isEmpty ? "say which date, like tomorrow or +3d" : "give one date, like +3d")
        }
    }

    func execute(in session: Session) async throws(CommandFailure) {
        let today = await session.board.root.state.today
        let due = try dates.first?.resolve(today: today)
        let event = try await session.change(.setDue(id: id, due: due))
        try await TaskArguments.report(event, verb: "updated", in: session)
    }
}

/// `list [--open | --done] [--tag <tag>] [--overdue]`
struct ListCommand: BoardCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List tasks.", aliases: ["ls"])

    @Flag(help: "Only open tasks.")
    var open = false

    @Flag(help: "Only done tasks.")
    var done = false

    @Option(name: [.short, .long], help: "Only tasks with this tag.")
    var tag: String?

    @Flag(help: "Only open tasks whose due date has passed.")
    var overdue = false

    func validate() throws {
        if open && done {
            throw ValidationError("--open and --done exclude each other; use neither to see all tasks")
        }
        if let tag { try TaskArguments.validate(tags: [tag]) }
    }

    var filter: TaskFilter {
        TaskFilter(status: open ? .open : done ? .done : .all, tag: tag.flatMap(Tag.normalize), overdueOnly: overdue)
    }

    func execute(in session: Session) async throws(CommandFailure) {
        let view = await session.taskView()
        let tasks = filter.apply(to: Array(await session.tasks().items), today: view.today)
        session.console.lines(view.list(tasks, filter: filter))
    }
}

/// `remind <id> <delay>`
struct RemindCommand: BoardCommand {
    static let configuration = CommandConfiguration(
        commandName: "remind",
        abstract: "Remind me of a task after a delay (while TaskBoard runs).",
        discussion: "Example: remind 3 10m. Completing or deleting the task cancels its reminder."
    )

    @Argument(help: "The task number.")
    var id: Int

    // `.allUnrecognized` so that `-5s` reaches `validate()`, which says it is negative, instead of being
    // read as an unknown option; `validate()` takes exactly one word.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("How long from now: 90, 90s, 5m, 2h.", valueName: "delay"))
    var delayWords: [String]

    var delay: String { delayWords.first ?? "" }

    func validate() throws {
        try TaskArguments.validate(ids: [id])
        guard delayWords.count == 1 else {
            throw ValidationError(
                delayWords.isEmpty ? "say how long from now, like 90s, 5m or 2h" : "give one delay, like 5m"
            )
        }
        if delay.hasPrefix("-"), DurationText.seconds(String(delay.dropFirst())) != nil {
            throw ValidationError("the delay must not be negative, not '\(delay)'; say how long from now, like 5m")
        }
        guard let seconds = DurationText.seconds(delay) else {
            throw ValidationError("'\(delay)' is not a delay; write it like 90s, 5m or 2h")
        }
        guard seconds <= DurationText.longest else {
            throw ValidationError(
                "the delay must be at most \(Int(DurationText.longest / 3600))h (a week), not '\(delay)'"
            )
        }
    }

    func execute(in session: Session) async throws(CommandFailure) {
        guard session.mode != .oneShot else {
            throw CommandFailure(
                "a reminder fires only while TaskBoard runs",
                hint: "set it at the prompt: run taskboard without arguments"
            )
        }
        let seconds = DurationText.seconds(delay) ?? 0
        let task = try await session.requireTask(id)
        guard !task.isDone else { throw CommandFailure("task #\(id) is done", hint: "'reopen \(id)' first") }
        await session.send(.remind(id: id, seconds: seconds))
        session.console.line("will remind you of #\(id) in \(DurationText.text(seconds))")
    }
}

/// Checks and messages the task commands share.
enum TaskArguments {
    /// Throws, naming the range, for a task number outside ``TaskItem/ids``.
    static func validate(ids: [Int]) throws {
        for id in ids where !TaskItem.ids.contains(id) {
            throw ValidationError(
                "task numbers go from \(TaskItem.ids.lowerBound) to \(TaskItem.ids.upperBound), not \(id)"
            )
        }
    }

    static func validate(tags: [String]) throws {
        for tag in tags where Tag.normalize(tag) == nil {
            throw ValidationError(
                "'\(tag)' is not a valid tag; use letters, digits, '-', '_' or '/', like home or work/q3"
            )
        }
    }

    /// Prints what a tasks action did, or throws if it could not do it.
    static func report(_ event: TasksEvent?, verb: String, in session: Session) async throws(CommandFailure) {
        let view = await session.taskView()
        switch event {
        case .added(let task), .updated(let task), .deleted(let task):
            session.console.line("\(verb) " + view.line(task))
        case .unchanged(let task):
            session.console.line("no change: " + view.line(task))
        case .notFound(let id):
            throw .noTask(id)
        case .deletedElsewhere(let id):
            throw .deletedElsewhere(id)
        case .replaced, nil:
            break
        }
    }
}
