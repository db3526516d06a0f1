import Foundation

/// Finds the tasks that match a query. Pure: the Search effect calls it, tests call it directly.
///
/// A query is words separated by spaces; a task matches when every word does. A word matches a task
/// when it appears in the title (ignoring case and accents) or starts one of its tags; a word written
/// `#tag` matches only tags, exactly.
enum SearchMatcher {
    static func hits(for query: String, in tasks: [TaskItem]) -> [SearchHit] {
        let terms = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !terms.isEmpty else { return [] }
        return tasks.compactMap { match(terms, $0) }
    }

    private static func match(_ terms: [String], _ task: TaskItem) -> SearchHit? {
        var highlights: [Range<Int>] = []
        var matchedTags = Set<String>()
        for term in terms {
            if term.hasPrefix("#") {
                guard let tag = Tag.normalize(term), task.tags.contains(tag) else { return nil }
                matchedTags.insert(tag)
                continue
            }
            let inTitle = occurrences(of: term, in: task.title)
            let lowered = term.lowercased()
            let inTags = task.tags.filter { $0.hasPrefix(lowered) }
            guard !inTitle.isEmpty || !inTags.isEmpty else { return nil }
            highlights += inTitle
            matchedTags.formUnion(inTags)
        }
        return SearchHit(
            taskID: task.id,
            title: task.title,
            highlights: merged(highlights),
            matchedTags: matchedTags.sorted()
        )
    }

    /// Character ranges of every occurrence of `term` in `text`.
    private static func occurrences(of term: String, in text: String) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var searchStart = text.startIndex
        while searchStart < text.endIndex,
            let range = text.range(
                of: term,
                options: [.caseInsensitive, .diacriticInsensitive],
                range: searchStart..<text.endIndex
            )
        {
            let lower = text.distance(from: text.startIndex, to: range.lowerBound)
            let upper = text.distance(from: text.startIndex, to: range.upperBound)
            found.append(lower..<upper)
            searchStart = range.upperBound
        }
        return found
    }

    /// Sorts `ranges` and joins the ones that overlap or touch.
    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
