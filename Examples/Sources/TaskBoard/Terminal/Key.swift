/// A key pressed at the prompt, decoded from the bytes the terminal sends (``KeyDecoder``).
enum Key: Equatable, Sendable {
    /// Text to insert: a character, or part of one (a combining accent typed after its letter).
    case text(Character)
    case enter
    case backspace
    /// Delete, or Ctrl-D on a line that is not empty.
    case delete
    case left
    case right
    case wordLeft
    case wordRight
    case home
    case end
    case up
    case down
    /// Ctrl-C.
    case interrupt
    /// Ctrl-D.
    case endOfInput
    /// Ctrl-L.
    case clearScreen
    /// Ctrl-Z: stop TaskBoard, as a shell's job control does (`fg` brings it back).
    case suspend
    /// Ctrl-U: delete from the start of the line to the cursor.
    case deleteToStart
    /// Ctrl-K: delete from the cursor to the end of the line.
    case deleteToEnd
    /// Ctrl-W or Alt-Backspace: delete the word before the cursor.
    case deleteWordBefore
    /// A key or sequence the editor does not use (Tab, F1, Ctrl-S...): ignored.
    case other
}
