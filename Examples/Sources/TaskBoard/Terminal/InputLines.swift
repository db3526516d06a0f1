import Foundation

/// Lines of text from standard input or a file.
enum InputLines {
    /// Standard input, read on a thread of its own so that waiting for the user blocks no task.
    static func standardInput() -> AsyncStream<String> {
        AsyncStream { continuation in
            Thread.detachNewThread {
                while let line = readLine(strippingNewline: true) {
                    continuation.yield(line)
                }
                continuation.finish()
            }
        }
    }

    /// The lines of a file.
    static func file(_ path: String) throws(CommandFailure) -> AsyncStream<String> {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw CommandFailure("cannot read the script \(path) (\(ErrorText.describe(error)))")
        }
        return lines(of: text)
    }

    /// The lines of `text`.
    static func lines(of text: String) -> AsyncStream<String> {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return AsyncStream { continuation in
            for line in lines { continuation.yield(line) }
            continuation.finish()
        }
    }
}
