import Testing

@testable import TaskBoard

@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownEscaped() {
        #expect(
            TerminalText.escaped("red \u{1B}[31mX\nnext\ttab\r\u{7}\u{7F}\u{85}")
                == #"red \e[31mX\nnext\ttab\r\u{7}\u{7f}\u{85}"#
        )
        #expect(TerminalText.escaped("plain, café, 日本, 👨‍👩‍👧") == "plain, café, 日本, 👨‍👩‍👧")
    }

    @Test(arguments: [
        ("abc", 3), ("日本", 4), ("e\u{301}", 1), ("café", 4), ("👨", 2), ("👨‍👩‍👧", 2), ("❤️", 2), ("👍🏽", 2),
        ("\u{200B}", 0), ("ｆｕｌｌ", 8), ("한국", 4),
    ])
    func widthsCountTerminalCells(text: String, cells: Int) {
        #expect(TerminalText.width(text) == cells)
    }

    @Test func paddingCountsCells() {
        #expect(TerminalText.padded("日本", toWidth: 6) == "日本  ")
        #expect(TerminalText.padded("abc", toWidth: 2) == "abc")
    }

    @Test func theTagsHistogramLinesUpWideTags() {
        let props = StatsProps(
            tasks: TasksState(items: [
                TaskItem(id: 1, title: "a", tags: ["日本"]), TaskItem(id: 2, title: "b", tags: ["home"]),
                TaskItem(id: 3, title: "c", tags: ["home"]), TaskItem(id: 4, title: "d", tags: ["e\u{301}t\u{e9}"]),
            ]),
            today: Day(year: 2025, month: 3, day: 14)!,
            options: StatsState()
        )
        let rows = StatsView(theme: Theme(colors: false), barWidth: 4).lines(props).drop { $0 != "tags:" }.dropFirst()
        // `#日本` is five cells wide and `#été` four (one with a combining accent): the bars line up.
        #expect(Array(rows) == ["  #home #### 2", "  #été  ## 1", "  #日本 ## 1"])
    }
}
