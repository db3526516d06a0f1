import Synchronization
import Testing

@testable import TaskBoard

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-Z at the prompt stops the process inside the call that raises SIGTSTP, so that raw mode is taken
/// back and the line drawn only after `fg`. SIGTSTP itself would stop the test run; SIGUSR1, with a
/// handler that counts, shows the same thing: the signal is handled before the call returns, even on
/// a thread that blocks it, as the prompt's threads do.
@Suite(.timeLimit(.minutes(1))) struct ThreadSignalTests {
    static let handled = Atomic<Int>(0)

    @Test func aSignalRaisedHereIsHandledBeforeTheCallReturnsEvenWhereItIsBlocked() {
        signal(SIGUSR1) { _ in _ = ThreadSignalTests.handled.add(1, ordering: .sequentiallyConsistent) }
        defer { signal(SIGUSR1, SIG_DFL) }
        var usr1 = sigset_t()
        sigemptyset(&usr1)
        sigaddset(&usr1, SIGUSR1)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &usr1, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        let before = Self.handled.load(ordering: .sequentiallyConsistent)
        ThreadSignal.raiseHere(SIGUSR1)
        #expect(Self.handled.load(ordering: .sequentiallyConsistent) == before + 1)

        // The thread blocks the signal again afterwards, as it did before.
        var now = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &now)
        #expect(sigismember(&now, SIGUSR1) == 1)
    }
}
