import Foundation

/// Text for the `stats` command: counts, completion, overdue, and a tags histogram.
struct StatsView {
    let theme: Theme
    /// The width of the longest histogram bar.
    var barWidth = 20

    func lines(_ props: StatsProps) -> [String] {
        guard props.total > 0 else { return ["the board is empty"] }
        var lines: [String] = []
        let rate = props.completionRate.map { "\(Int(($0 * 100).rounded()))%" } ?? "-"
        lines.append("tasks: \(props.total)  open: \(props.open)  done: \(props.done)  completion: \(rate)")
        lines.append("  " + bar(props.done, of: props.total, width: barWidth * 2))
        let overdue = props.overdue > 0 ? theme.error("overdue: \(props.overdue)") : "overdue: 0"
        lines.append("\(overdue)  due today: \(props.dueToday)")
        guard !props.topTags.isEmpty else {
            lines.append("no tags")
            return lines
        }
        lines.append("tags:")
        // Columns in terminal cells: `#日本` is five cells wide, not three.
        let names = props.topTags.map { TerminalText.escaped($0.tag) }
        let width = names.map(TerminalText.width).max() ?? 0
        let most = props.topTags.first?.count ?? 1
        for (entry, name) in zip(props.topTags, names) {
            let padded = TerminalText.padded(name, toWidth: width)
            let length = max(1, entry.count * barWidth / max(most, 1))
            lines.append("  \(theme.tag("#" + padded)) \(String(repeating: "#", count: length)) \(entry.count)")
        }
        if props.otherTagCount > 0 {
            lines.append(theme.dim("  (and \(props.otherTagCount) more)"))
        }
        if props.untagged > 0 {
            lines.append(theme.dim("  untagged: \(props.untagged)"))
        }
        return lines
    }

    private func bar(_ part: Int, of total: Int, width: Int) -> String {
        let filled = total == 0 ? 0 : part * width / total
        return "[" + String(repeating: "=", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }
}
