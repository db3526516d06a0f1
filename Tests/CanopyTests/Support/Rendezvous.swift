@testable import Canopy

/// Lets tasks wait for one another: each ``arrive()`` returns once `parties` tasks have arrived.
final class Rendezvous: Sendable {
    private struct Storage {
        var arrived = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let parties: Int
    private let storage = LockedValue(Storage())

    init(parties: Int) {
        self.parties = parties
    }

    func arrive() async {
        await withCheckedContinuation { continuation in
            let released = storage.withLock { storage -> [CheckedContinuation<Void, Never>] in
                storage.arrived += 1
                storage.waiting.append(continuation)
                guard storage.arrived >= parties else { return [] }
                defer { storage.waiting = [] }
                return storage.waiting
            }
            for continuation in released { continuation.resume() }
        }
    }
}
