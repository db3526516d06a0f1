import CanopyTestSupport
import Dispatch
import Testing

/// Holds up a thread until the test opens it: a signal, not a timeout.
///
/// A gate that is never opened records an issue at the place it was created once the wait bound has
/// passed, and lets the thread go on, so a bug fails the test instead of hanging the run.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let sourceLocation: SourceLocation

    init(sourceLocation: SourceLocation = #_sourceLocation) {
        self.sourceLocation = sourceLocation
    }

    /// Blocks the caller until ``open()``.
    func pass() {
        if boundedWait(on: semaphore, for: "a gate to open", sourceLocation: sourceLocation) {
            semaphore.signal()
        }
    }

    /// Lets every current and future ``pass()`` through.
    func open() {
        semaphore.signal()
    }
}
