import Canopy

/// The rules a change to the tasks must follow before any reducer sees it, and the middleware that
/// enforces them on the `tasks` store.
///
/// The middleware blocks a breaking action, so its dispatch completes as `.blocked` and nothing
/// changes; ``problem(with:)`` gives the command that sent it the sentence to show
/// (`Session.change(_:)`).
enum TaskRules {
    /// What is wrong with `action`, in words for the user, or `nil` when it may go on.
    static func problem(with action: AppAction) -> String? {
        switch action {
        case .tasks(.add(let title, _, _, _)), .tasks(.rename(_, let title)):
            title.allSatisfy(\.isWhitespace) ? "a task needs a title" : nil
        default:
            nil
        }
    }

    /// Blocks the actions that break a rule; lets the others through unchanged.
    static let validate = Middleware<TasksStoreState, AppAction>("validate") { action, context in
        guard problem(with: action) == nil else { return }
        context.next(action)
    }
}
