import CanopyTestSupport
import Dispatch
import Testing

@testable import Canopy

/// Counts the lives of the ``Life`` objects made with it, from any thread: how many were made, how many
/// ended, and whether the count of those alive ever went below zero. A value that holds a `Life` (an
/// action, a state) that is leaked keeps it alive; one destroyed twice over-releases it, which ends it
/// early (and a sanitizer build reports the use after free).
final class LifeCensus: Sendable {
    private struct Counts {
        var made = 0
        var ended = 0
        var wentNegative = false
        var waiters: [@Sendable (()) -> Void] = []
    }

    // A `LockedValue`, not a `Mutex`: the thread sanitizer cannot see a contended `Mutex` wait (a futex
    // call), and reported the census's own counts as racing.
    private let counts = LockedValue(Counts())

    init() {}

    /// How many lives began and have not ended.
    var alive: Int {
        counts.withLock { $0.made - $0.ended }
    }

    /// How many lives began.
    var made: Int {
        counts.withLock { $0.made }
    }

    /// How many lives ended.
    var ended: Int {
        counts.withLock { $0.ended }
    }

    /// Whether more lives ended than began at some moment.
    var wentNegative: Bool {
        counts.withLock { $0.wentNegative }
    }

    fileprivate func noteBegan() {
        counts.withLock { $0.made += 1 }
    }

    fileprivate func noteEnded() {
        let ready = counts.withLock { counts -> [@Sendable (()) -> Void] in
            counts.ended += 1
            if counts.ended > counts.made {
                counts.wentNegative = true
            }
            guard counts.ended == counts.made else { return [] }
            defer { counts.waiters = [] }
            return counts.waiters
        }
        for resume in ready {
            resume(())
        }
    }

    /// Suspends until no life made with this census is alive: at once if none is now. After the wait
    /// bound, records an issue at the caller and returns `false`.
    ///
    /// Use it only where the count reaches zero once, at the end (the lives a tree's states hold, while
    /// the tree lives, never all end at once).
    @discardableResult
    func waitUntilNoneAlive(sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
        let done: Void? = await boundedWait(for: "every life to end", sourceLocation: sourceLocation) { resume in
            let isDone = counts.withLock { counts -> Bool in
                if counts.ended >= counts.made { return true }
                counts.waiters.append(resume)
                return false
            }
            if isDone {
                resume(())
            }
        }
        return done != nil
    }
}

/// An object that counts itself in its census from `init` to `deinit`, carrying a value to check
/// order and content with.
final class Life: Sendable {
    let value: Int
    private let census: LifeCensus

    init(_ value: Int, in census: LifeCensus) {
        self.value = value
        self.census = census
        census.noteBegan()
    }

    deinit {
        census.noteEnded()
    }
}

/// Holds up `queue` until the gate it returns is opened: returns once the queue is held, so whatever is
/// sent to the tree meanwhile waits in its inbox.
func hold(_ queue: DispatchQueue, sourceLocation: SourceLocation = #_sourceLocation) -> Gate {
    let gate = Gate(sourceLocation: sourceLocation)
    let held = DispatchSemaphore(value: 0)
    queue.async {
        held.signal()
        gate.pass()
    }
    boundedWait(on: held, for: "queue \(queue.label) to be held", sourceLocation: sourceLocation)
    return gate
}
