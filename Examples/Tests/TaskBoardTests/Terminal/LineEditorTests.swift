import Testing

@testable import TaskBoard

@Suite struct LineEditorTests {
    private func type(_ text: String, into editor: inout LineEditor) {
        for character in text { _ = editor.handle(.text(character)) }
    }

    @Test func arrowsMoveAndBackspaceDeletesBeforeTheCursor() {
        var editor = LineEditor()
        type("lsit", into: &editor)
        _ = editor.handle(.left)
        _ = editor.handle(.left)
        _ = editor.handle(.backspace)
        _ = editor.handle(.right)
        type("s", into: &editor)
        #expect(editor.text == "list")
        #expect(editor.handle(.enter) == .submit("list"))
        #expect(editor.text.isEmpty)
    }

    @Test func ctrlDOnALineWithTextDeletesUnderTheCursorAndNeverRunsIt() {
        var editor = LineEditor()
        type("add partial task", into: &editor)
        #expect(editor.handle(.endOfInput) == .none)
        #expect(editor.handle(.endOfInput) == .none)
        #expect(editor.text == "add partial task")
        _ = editor.handle(.home)
        #expect(editor.handle(.endOfInput) == .redraw)
        #expect(editor.text == "dd partial task")
        _ = editor.handle(.deleteToEnd)
        #expect(editor.handle(.endOfInput) == .endOfInput)
    }

    @Test func upAndDownBrowseTheHistoryAndComeBackToTheDraft() {
        var editor = LineEditor(history: ["add one", "list"])
        type("sta", into: &editor)
        #expect(editor.handle(.up) == .redraw)
        #expect(editor.text == "list")
        _ = editor.handle(.up)
        #expect(editor.text == "add one")
        #expect(editor.handle(.up) == .none)
        _ = editor.handle(.down)
        _ = editor.handle(.down)
        #expect(editor.text == "sta")
        #expect(editor.handle(.down) == .none)
        _ = editor.handle(.deleteToStart)
        type("list", into: &editor)
        _ = editor.handle(.enter)
        type("  ", into: &editor)
        _ = editor.handle(.enter)
        #expect(editor.history == ["add one", "list"])
    }

    @Test func wordsAreCutAndCrossedAsAWhole() {
        var editor = LineEditor()
        type("add Buy milk", into: &editor)
        _ = editor.handle(.deleteWordBefore)
        #expect(editor.text == "add Buy ")
        _ = editor.handle(.wordLeft)
        #expect(editor.cursor == 4)
        _ = editor.handle(.wordLeft)
        _ = editor.handle(.wordRight)
        #expect(editor.cursor == 3)
    }

    @Test func aCombiningMarkJoinsTheCharacterBeforeIt() {
        var editor = LineEditor()
        type("cafe", into: &editor)
        _ = editor.handle(.text("\u{301}"))
        #expect(editor.characters.count == 4)
        #expect(editor.cursor == 4)
        #expect(editor.text == "caf\u{E9}")
    }

    @Test func aLongLineShowsAWindowAroundTheCursorInCells() {
        var editor = LineEditor()
        type("日本日本", into: &editor)
        // 40 columns, an 11-cell prompt: 28 cells for the text.
        let short = editor.visible(columns: 40, promptWidth: 11)
        #expect(short.text == "日本日本")
        #expect(short.cursorFromEnd == 0)
        _ = editor.handle(.home)
        #expect(editor.visible(columns: 40, promptWidth: 11).cursorFromEnd == 8)
        type(String(repeating: "x", count: 60), into: &editor)
        let window = editor.visible(columns: 40, promptWidth: 11)
        #expect(window.text == String(repeating: "x", count: 22) + "日本日")
        #expect(window.cursorFromEnd == 6)
    }

    @Test func drawingALongLineMeasuresOnlyWhatFitsWhereverTheCursorIs() {
        // A paste arrives as one key per character and the line is drawn after each read: measuring the
        // whole line for each drawing made a 4,000-character paste take seconds.
        var editor = LineEditor()
        type(String(repeating: "日本abc ", count: 5_000), into: &editor)
        var measured = 0
        let counting: (Character) -> Int = { character in
            measured += 1
            return TerminalText.width(of: character)
        }
        let atEnd = editor.visible(columns: 80, promptWidth: 11, width: counting)
        #expect(measured <= 3 * 80)
        #expect(TerminalText.width(atEnd.text) <= 80 - 11 - 1)
        #expect(atEnd.text.hasSuffix("日本abc "))
        #expect(atEnd.cursorFromEnd == 0)

        for _ in 0..<10_000 { _ = editor.handle(.left) }
        measured = 0
        let inside = editor.visible(columns: 80, promptWidth: 11, width: counting)
        #expect(measured <= 3 * 80)
        #expect(TerminalText.width(inside.text) <= 80 - 11 - 1)
        #expect(inside.cursorFromEnd > 0)
    }

    @Test func controlAndBidirectionalCharactersAreShownEscapedWithTheCursorInPlace() {
        var editor = LineEditor()
        type("a\u{202E}b\u{85}c", into: &editor)
        _ = editor.handle(.left)
        let shown = editor.visible(columns: 80, promptWidth: 11)
        #expect(shown.text == #"a\u{202e}b\u{85}c"#)
        #expect(shown.cursorFromEnd == 1)
        _ = editor.handle(.left)
        #expect(editor.visible(columns: 80, promptWidth: 11).cursorFromEnd == 1 + 6)
    }
}
