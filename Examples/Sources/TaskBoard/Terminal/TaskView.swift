import Foundation

/// Text for tasks: one task per line, and lists with a header.
struct TaskView {
    let theme: Theme
    let today: Day

    /// `#3 [x] Buy milk #home #shop  due tomorrow`, with control characters in the title and tags
    /// escaped (``TerminalText/escaped(_:)``).
    func line(_ task: TaskItem) -> String {
        let title = TerminalText.escaped(task.title)
        var parts = [theme.bold("#\(task.id)"), task.isDone ? "[x]" : "[ ]", task.isDone ? theme.dim(title) : title]
        parts += task.tags.map { theme.tag("#" + TerminalText.escaped($0)) }
        if let due = task.due, !task.isDone {
            parts.append(" " + dueText(due))
        }
        return parts.joined(separator: " ")
    }

    /// "due today", "due in 3 days (2025-03-17)", "overdue by 2 days (2025-03-12)".
    func dueText(_ due: Day) -> String {
        let days = today.days(until: due)
        switch days {
        case 0: return theme.warning("due today")
        case 1: return "due tomorrow"
        case 2...: return "due in \(days) days (\(due))"
        case -1: return theme.error("overdue by 1 day (\(due))")
        default: return theme.error("overdue by \(-days) days (\(due))")
        }
    }

    /// A header line, then one line per task; or one line saying there is none.
    func list(_ tasks: [TaskItem], filter: TaskFilter) -> [String] {
        guard !tasks.isEmpty else { return ["no \(filter.summary)"] }
        let noun = tasks.count == 1 ? filter.summary.replacingFirst("tasks", with: "task") : filter.summary
        return ["\(tasks.count) \(noun):"] + tasks.map { "  " + line($0) }
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
