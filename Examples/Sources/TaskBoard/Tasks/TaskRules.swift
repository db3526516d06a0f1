import Canopy

/// The rules a change to the tasks must follow before any reducer sees it, and the middleware that
/// enforces them on the `tasks` store.
///
/// The middleware blocks a breaking action, so its dispatch completes as `.blocked` and nothing
/// changes; ``problem(with:)`` gives the command that sent it the sentence to show
/// (`Session.change(_:)`).
enum TaskRules {
    /// The longest title, in characters: a long paragraph, far more than a line of a list shows.
    static let longestTitle = 4_000

    /// What is wrong with `action`, in words for the user, or `nil` when it may go on.
    static func problem(with action: AppAction) -> String? {
        switch action {
        case .tasks(.add(let title, _, _, _)), .tasks(.rename(_, let title)):
            problem(withTitle: title)
        default:
            nil
        }
    }

    private static func problem(withTitle title: String) -> String? {
        if title.allSatisfy(\.isWhitespace) { return "a task needs a title" }
        guard let length = excessLength(of: title) else { return nil }
        return "a title has at most \(longestTitle) characters, not \(length); put the rest in another task"
    }

    /// The length of `title` in characters when it is over ``longestTitle``, else `nil`.
    static func excessLength(of title: String) -> Int? {
        // A character takes at least one byte: most titles are decided without counting characters.
        guard title.utf8.count > longestTitle else { return nil }
        let length = title.count
        return length > longestTitle ? length : nil
    }

    /// Blocks the actions that break a rule; lets the others through unchanged.
    static let validate = Middleware<TasksStoreState, AppAction>("validate") { action, context in
        guard problem(with: action) == nil else { return }
        context.next(action)
    }
}
