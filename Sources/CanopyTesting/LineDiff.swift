/// A line-by-line diff of two dumps that shows only the lines that differ, with a little context.
enum LineDiff {
    private enum Line: Equatable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// Lines of context kept around each change.
    static let context = 2

    /// The differing lines of `expected` and `actual`, prefixed `-` (expected) and `+` (actual), with up
    /// to ``context`` unchanged lines around each change; `…` stands for the unchanged lines left out.
    static func render(expected: [String], actual: [String]) -> String {
        let lines = diff(expected, actual)
        var keep = [Bool](repeating: false, count: lines.count)
        for (index, line) in lines.enumerated() {
            if case .same = line { continue }
            for near in max(0, index - context)...min(lines.count - 1, index + context) {
                keep[near] = true
            }
        }
        var output: [String] = []
        var skipped = false
        for (index, line) in lines.enumerated() {
            guard keep[index] else {
                skipped = true
                continue
            }
            if skipped {
                output.append("  …")
                skipped = false
            }
            switch line {
            case .same(let text): output.append("  " + text)
            case .removed(let text): output.append("- " + text)
            case .added(let text): output.append("+ " + text)
            }
        }
        if skipped {
            output.append("  …")
        }
        return output.joined(separator: "\n")
    }

    /// A shortest edit script by longest common subsequence (the dumps of states are short).
    private static func diff(_ old: [String], _ new: [String]) -> [Line] {
        let rows = old.count
        let columns = new.count
        // common[i][j]: the length of the longest common subsequence of old[i...] and new[j...].
        var common = [[Int]](repeating: [Int](repeating: 0, count: columns + 1), count: rows + 1)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                common[i][j] =
                    old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var lines: [Line] = []
        var i = 0
        var j = 0
        while i < rows || j < columns {
            if i < rows, j < columns, old[i] == new[j] {
                lines.append(.same(old[i]))
                i += 1
                j += 1
            } else if j < columns, i == rows || common[i][j + 1] > common[i + 1][j] {
                lines.append(.added(new[j]))
                j += 1
            } else {
                lines.append(.removed(old[i]))
                i += 1
            }
        }
        return lines
    }
}
