/// Which tasks `list` shows: by status, by tag, and whether only overdue ones.
struct TaskFilter: Equatable, Sendable {
    enum Status: Equatable, Sendable {
        case all
        case open
        case done
    }

    var status = Status.all
    var tag: String?
    var overdueOnly = false

    /// Whether `task` passes every condition of the filter on `today`.
    func matches(_ task: TaskItem, today: Day) -> Bool {
        switch status {
        case .all: break
        case .open: guard !task.isDone else { return false }
        case .done: guard task.isDone else { return false }
        }
        if let tag, !task.tags.contains(tag) { return false }
        if overdueOnly, !task.isOverdue(today: today) { return false }
        return true
    }

    /// The tasks of `items` that match, in board order.
    func apply(to items: [TaskItem], today: Day) -> [TaskItem] {
        items.filter { matches($0, today: today) }
    }

    /// Words for the list header: "open tasks tagged home".
    var summary: String {
        var words: [String] = []
        if overdueOnly { words.append("overdue") }
        switch status {
        case .all: break
        case .open: words.append("open")
        case .done: words.append("done")
        }
        words.append("tasks")
        if let tag { words.append("tagged #\(tag)") }
        return words.joined(separator: " ")
    }
}
