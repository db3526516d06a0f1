import Dispatch

/// Holds up a thread until the test opens it: a signal, not a timeout.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    init() {}

    /// Blocks the caller until ``open()``.
    func pass() {
        semaphore.wait()
        semaphore.signal()
    }

    /// Lets every current and future ``pass()`` through.
    func open() {
        semaphore.signal()
    }
}
