/// A command that could not do what was asked: one line for the user, and a hint about what to do.
struct CommandFailure: Error, Equatable, CustomStringConvertible {
    let message: String
    let hint: String?

    init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// `message (hint)`, on one line.
    var description: String {
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }

    static func noTask(_ id: Int) -> CommandFailure {
        CommandFailure("there is no task #\(id)", hint: "'list' shows the task numbers")
    }

    static func deletedElsewhere(_ id: Int) -> CommandFailure {
        CommandFailure("task #\(id) was deleted by another session", hint: "nothing was changed")
    }
}
