import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT, SIGTERM and SIGHUP end a run the way shells expect, without losing what is pending: a
/// running sync is cancelled, unsaved changes are written, then the process exits with 128 plus the
/// signal number (130, 143, 129).
///
/// At the prompt, Ctrl-C is a key, not a signal (the terminal is in raw mode), so it only cancels a
/// sync or clears the line; a SIGINT sent with `kill` still ends the run.
final class SignalExit {
    // Kept so that the sources live as long as the run.
    private let sources: [any DispatchSourceSignal]
    private let cleanups = Cleanups()
    private let received = Received()

    init(session: Session) {
        let queue = DispatchQueue(label: "taskboard.signals")
        let cleanups = self.cleanups
        let received = self.received
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                // A second signal while the first is being handled changes nothing.
                guard received.claim(number) else { return }
                cleanups.run()
                Task {
                    _ = await session.finish(interrupted: true)
                    _ = session.stopRecording()
                    exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }

    /// Never returns once a signal arrived: the handler is saving the board and will exit with the
    /// signal's status, which the normal end of the run (a cancelled sync returning, the input closing on
    /// a hangup) must not race to exit with another.
    func holdIfExiting() async {
        guard received.number != nil else { return }
        await withCheckedContinuation { received.hold($0) }
    }

    /// Runs `cleanup` before the board is saved on a signal: restoring the terminal, for instance.
    func onSignal(_ cleanup: @escaping @Sendable () -> Void) {
        cleanups.add(cleanup)
    }
}

/// What to do before saving on a signal, added from any thread.
private final class Cleanups: Sendable {
    private let list = Mutex<[@Sendable () -> Void]>([])

    func add(_ cleanup: @escaping @Sendable () -> Void) {
        list.withLock { $0.append(cleanup) }
    }

    func run() {
        for cleanup in list.withLock({ $0 }) { cleanup() }
    }
}

/// The signal being handled, if any, and the tasks held until the process exits.
private final class Received: Sendable {
    private let value = Mutex<(number: Int32?, held: [CheckedContinuation<Void, Never>])>((nil, []))

    var number: Int32? { value.withLock { $0.number } }

    /// Records `number` and returns `true`, unless a signal was already received.
    func claim(_ number: Int32) -> Bool {
        value.withLock { value in
            guard value.number == nil else { return false }
            value.number = number
            return true
        }
    }

    /// Keeps `continuation` (never resumed: the process exits first), so that it is not reported leaked.
    func hold(_ continuation: CheckedContinuation<Void, Never>) {
        value.withLock { $0.held.append(continuation) }
    }
}
