/// Text for search results, with the matched parts highlighted.
struct SearchView {
    let theme: Theme

    func lines(_ results: SearchResults, tasks: [TaskItem], superseded: Int) -> [String] {
        var lines: [String] = []
        let count = results.hits.count
        let header =
            count == 0
            ? "no task matches \"\(TerminalText.escaped(results.query))\""
            : "\(count) \(count == 1 ? "task matches" : "tasks match") \"\(TerminalText.escaped(results.query))\":"
        lines.append(header)
        for hit in results.hits {
            let task = tasks.first { $0.id == hit.taskID }
            var parts = [theme.bold("#\(hit.taskID)"), task?.isDone == true ? "[x]" : "[ ]"]
            parts.append(theme.highlight(hit.title, ranges: hit.highlights))
            for tag in task?.tags ?? [] {
                let shown = "#" + TerminalText.escaped(tag)
                parts.append(hit.matchedTags.contains(tag) ? theme.highlight(shown) : theme.tag(shown))
            }
            if task == nil { parts.append(theme.dim("(deleted since)")) }
            lines.append("  " + parts.joined(separator: " "))
        }
        if superseded > 0 {
            let noun = superseded == 1 ? "earlier query was" : "earlier queries were"
            lines.append(theme.dim("(\(superseded) \(noun) superseded before finishing and cancelled)"))
        }
        return lines
    }
}
