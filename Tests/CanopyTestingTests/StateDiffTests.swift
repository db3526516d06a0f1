import Testing

@testable import CanopyTesting

@Suite struct StateDiffTests {
    private struct Item: Equatable {
        var title: String
        var tags: Set<String>
        var due: Int?
    }

    private enum Event: Equatable {
        case added(Item, at: Int)
        case cleared
    }

    @Test func dumpsOneFieldPerLineWithSortedSets() {
        let item = Item(title: "Buy milk", tags: ["home", "errands"], due: nil)
        #expect(
            StateDump.lines(of: item) == [
                "Item(",
                "  title: \"Buy milk\"",
                "  tags: [",
                "    \"errands\"",
                "    \"home\"",
                "  ]",
                "  due: nil",
                ")",
            ]
        )
    }

    @Test func dumpsEnumsAndTuplesOnOneLine() {
        let item = Item(title: "Fix", tags: [], due: 3)
        #expect(StateDump.line(of: Event.added(item, at: 2)) == ".added(Item(title: \"Fix\", tags: [], due: 3), at: 2)")
        #expect(StateDump.line(of: Event.cleared) == ".cleared")
        #expect(StateDump.line(of: (1, ["a": 2])) == "(.0: 1, .1: [\"a\": 2])")
    }

    @Test func comparesStatesThatAreNotEquatableByTheirDumps() {
        #expect(StateComparison.areEqual((1, "a"), (1, "a")))
        #expect(!StateComparison.areEqual((1, "a"), (1, "b")))
    }

    @Test func showsOnlyTheChangedLinesWithTwoLinesOfContext() {
        let expected = (1...10).map { "line \($0)" }
        var actual = expected
        actual[6] = "changed"
        #expect(
            LineDiff.render(expected: expected, actual: actual) == """
                  …
                  line 5
                  line 6
                - line 7
                + changed
                  line 8
                  line 9
                  …
                """
        )
    }
}
