import Testing

@testable import TaskBoard

@Suite struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.keys(Array(text.utf8))
    }

    @Test func arrowsAndEditingKeysAreKeysNotText() {
        #expect(keys("l\u{1B}[D\u{1B}[C\u{1B}[A\u{1B}[B\u{7F}") == [.text("l"), .left, .right, .up, .down, .backspace])
        #expect(
            keys("\u{1B}[3~\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}[1;5D\u{1B}b") == [
                .delete, .home, .end, .home, .wordLeft, .wordLeft,
            ]
        )
        #expect(
            keys("\u{1}\u{5}\u{3}\u{4}\u{C}\u{15}\u{B}\u{17}\u{1A}\r\t") == [
                .home, .end, .interrupt, .endOfInput, .clearScreen, .deleteToStart, .deleteToEnd, .deleteWordBefore,
                .suspend, .enter, .other,
            ]
        )
    }

    @Test func sequencesAndCharactersSplitAcrossReadsAreJoined() {
        var decoder = KeyDecoder()
        let bytes = Array("a\u{1B}[D日👨".utf8)
        var decoded: [Key] = []
        for byte in bytes { decoded += decoder.keys([byte]) }
        #expect(decoded == [.text("a"), .left, .text("日"), .text("👨")])
    }

    @Test func anUnknownSequenceIsSkippedWhole() {
        #expect(keys("\u{1B}[15~x\u{1B}[200~y") == [.other, .text("x"), .other, .text("y")])
    }
}
