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
    ///
    /// An occurrence may start or end inside a character (`👨` in the family emoji `👨‍👩‍👧`, which is
    /// one character of five scalars); its range then grows to the whole characters it touches, so that
    /// something is highlighted.
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
            let lower = characterOffset(of: range.lowerBound, in: text, roundingUp: false)
            let upper = characterOffset(of: range.upperBound, in: text, roundingUp: true)
            found.append(lower..<max(upper, lower + 1))
            searchStart = range.upperBound > searchStart ? range.upperBound : text.index(after: searchStart)
        }
        return found
    }

    /// The offset in characters of `index`, rounded to a character boundary when it falls inside one.
    private static func characterOffset(of index: String.Index, in text: String, roundingUp: Bool) -> Int {
        var offset = 0
        var position = text.startIndex
        while position < text.endIndex {
            let next = text.index(after: position)
            if index == position || (index < next && !roundingUp) { return offset }
            if index < next { return offset + 1 }
            offset += 1
            position = next
        }
        return offset
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
