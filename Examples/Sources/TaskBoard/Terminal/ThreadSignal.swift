#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Raising a signal so that it is handled before the call returns.
///
/// `kill(getpid(), …)` sends a signal to the process, and the kernel hands it to any thread that does
/// not block it, a moment later. The threads TaskBoard's prompt runs on block most signals (Dispatch's
/// and the Swift runtime's threads do, and a thread they start inherits that), so Ctrl-Z's SIGTSTP sent
/// that way could stop the process only after the prompt had taken raw mode back and drawn itself, and
/// after `fg` the terminal would stay in line mode. Raised on the calling thread with the signal
/// unblocked there, the signal is handled as the call returns to user code: the process stops inside
/// the call and continues from it.
enum ThreadSignal {
    /// Raises `signal` on the calling thread with it unblocked there, then blocks it again if it was.
    /// A signal whose action is to stop the process returns once the process has been continued.
    static func raiseHere(_ signal: Int32) {
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, signal)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &only, &previous)
        raise(signal)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
    }
}
