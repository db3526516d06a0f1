import CanopyTestSupport
import Testing

@testable import Canopy

/// Lets tasks wait for one another: each ``arrive()`` returns once `parties` tasks have arrived.
final class Rendezvous: Sendable {
    private struct Storage {
        var arrived = 0
        var waiting: [@Sendable (()) -> Void] = []
    }

    private let parties: Int
    private let storage = LockedValue(Storage())

    init(parties: Int) {
        self.parties = parties
    }

    /// Returns once `parties` tasks have arrived, or records an issue at the caller after the wait bound.
    func arrive(sourceLocation: SourceLocation = #_sourceLocation) async {
        _ = await boundedWait(for: "\(parties) tasks to meet", sourceLocation: sourceLocation) { resume in
            let released = storage.withLock { storage -> [@Sendable (()) -> Void] in
                storage.arrived += 1
                storage.waiting.append(resume)
                guard storage.arrived >= parties else { return [] }
                defer { storage.waiting = [] }
                return storage.waiting
            }
            for resume in released { resume(()) }
        }
    }
}
