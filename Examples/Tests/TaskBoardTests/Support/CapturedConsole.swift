import Synchronization

@testable import TaskBoard

/// A console that keeps what is written, without colors, as a non-terminal would.
final class CapturedConsole: Sendable {
    private let text = Mutex<(output: String, error: String)>(("", ""))

    var output: String { text.withLock { $0.output } }
    var errors: String { text.withLock { $0.error } }

    var console: Console {
        Console(isTerminal: false, theme: Theme(colors: false)) { stream, written in
            self.text.withLock { text in
                switch stream {
                case .output: text.output += written
                case .error: text.error += written
                }
            }
        }
    }
}
