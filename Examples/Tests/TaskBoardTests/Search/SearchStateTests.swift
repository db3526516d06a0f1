import Testing

@testable import TaskBoard

@Suite(.timeLimit(.minutes(1))) struct SearchStateTests {
    private func results(_ serial: Int, _ query: String) -> SearchResults {
        SearchResults(serial: serial, query: query, hits: [])
    }

    @Test func eachQueryIsANewRequestThatWaitsForItsDebounce() {
        var state = SearchState()
        SearchState.reducer(&state, .search(.setQuery("  buy   milk ")))
        #expect(state.request == SearchState.Request(text: "buy milk", serial: 1))
        #expect(state.phase == .debouncing)
        SearchState.reducer(&state, .search(.setQuery("buy milk")))
        #expect(state.request.serial == 2)
        #expect(state.superseded == 1)
    }

    @Test func onlyTheResultsOfTheCurrentRequestAreKept() {
        var state = SearchState()
        SearchState.reducer(&state, .search(.setQuery("b")))
        SearchState.reducer(&state, .search(.setQuery("bi")))
        SearchState.reducer(&state, .search(.started(serial: 1)))
        #expect(state.phase == .debouncing)
        SearchState.reducer(&state, .search(.finished(results(1, "b"))))
        #expect(state.results == nil)
        SearchState.reducer(&state, .search(.started(serial: 2)))
        #expect(state.phase == .searching)
        SearchState.reducer(&state, .search(.finished(results(2, "bi"))))
        #expect(state.results == results(2, "bi"))
        #expect(state.phase == .done)
        #expect(state.supersededByResults == 1)
    }

    @Test func supersededCountsRestartAfterResults() {
        var state = SearchState()
        SearchState.reducer(&state, .search(.setQuery("a")))
        SearchState.reducer(&state, .search(.setQuery("ab")))
        SearchState.reducer(&state, .search(.finished(results(2, "ab"))))
        SearchState.reducer(&state, .search(.setQuery("c")))
        SearchState.reducer(&state, .search(.finished(results(3, "c"))))
        #expect(state.supersededByResults == 0)
        #expect(state.superseded == 1)
    }

    @Test func anEmptyQueryOrClearGoesIdle() {
        var state = SearchState()
        SearchState.reducer(&state, .search(.setQuery("a")))
        SearchState.reducer(&state, .search(.clear))
        #expect(state.phase == .idle)
        #expect(state.request.text.isEmpty)
        SearchState.reducer(&state, .search(.setQuery("   ")))
        #expect(state.phase == .idle)
    }
}

@Suite(.timeLimit(.minutes(1))) struct SearchMatcherTests {
    private let tasks = [
        TaskItem(id: 1, title: "Buy milk and more milk", tags: ["home", "errands"]),
        TaskItem(id: 2, title: "Write report", tags: ["work"]),
        TaskItem(id: 3, title: "Café visit", tags: ["errands"]),
    ]

    @Test func aMatchInsideAnEmojiSequenceHighlightsTheWholeCharacter() {
        let tasks = [TaskItem(id: 1, title: "Call 👨‍👩‍👧 and 👨 today")]
        let hits = SearchMatcher.hits(for: "👨", in: tasks)
        #expect(hits.map(\.taskID) == [1])
        #expect(hits.first?.highlights == [5..<6, 11..<12])
        let shown = Theme(colors: false).highlight(tasks[0].title, ranges: hits.first?.highlights ?? [])
        #expect(shown == "Call [👨‍👩‍👧] and [👨] today")
    }

    @Test func highlightedTitlesShowControlCharactersEscaped() {
        let title = "red \u{1B}[31mmilk\nnext"
        let hits = SearchMatcher.hits(for: "milk", in: [TaskItem(id: 1, title: title)])
        let shown = Theme(colors: false).highlight(title, ranges: hits.first?.highlights ?? [])
        #expect(shown == #"red \e[31m[milk]\nnext"#)
    }

    @Test func everyWordMustMatchTitleOrTagStart() {
        #expect(SearchMatcher.hits(for: "milk", in: tasks).map(\.taskID) == [1])
        #expect(SearchMatcher.hits(for: "err", in: tasks).map(\.taskID) == [1, 3])
        #expect(SearchMatcher.hits(for: "milk #work", in: tasks).isEmpty)
        #expect(SearchMatcher.hits(for: "#work", in: tasks).map(\.taskID) == [2])
        #expect(SearchMatcher.hits(for: "   ", in: tasks).isEmpty)
    }

    @Test func highlightsEveryOccurrenceIgnoringCaseAndAccents() {
        let hit = SearchMatcher.hits(for: "MILK buy", in: tasks)[0]
        #expect(hit.highlights == [0..<3, 4..<8, 18..<22])
        #expect(SearchMatcher.hits(for: "cafe", in: tasks)[0].highlights == [0..<4])
    }

    @Test func highlightedTextMarksTheRanges() {
        let theme = Theme(colors: false)
        #expect(theme.highlight("Buy milk", ranges: [4..<8]) == "Buy [milk]")
        #expect(theme.highlight("abc", ranges: [0..<1, 2..<9]) == "[a]b[c]")
    }

    @Test func overlappingRangesMerge() {
        #expect(SearchMatcher.merged([5..<7, 0..<2, 1..<3, 3..<4]) == [0..<4, 5..<7])
    }
}
