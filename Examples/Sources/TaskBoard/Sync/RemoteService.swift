import Foundation
import Synchronization

/// The server TaskBoard syncs with, simulated in process: each call takes `latency` seconds on the
/// tree's scheduler and fails as configured. What is pushed is kept in `remote.json` in the data
/// folder, so a later run can pull it.
final class RemoteService: Sendable {
    struct Configuration: Sendable {
        /// Seconds each call takes.
        var latency: TimeInterval = 0.3
        /// The probability, from 0 to 1, that a call fails.
        var failureRate = 0.0
        /// The first this many calls fail whatever the rate, to show retries on demand.
        var failFirst = 0
        /// Seeds the failures; the same seed fails the same calls.
        var seed: UInt64 = UInt64.random(in: 1...UInt64.max)
    }

    /// What `remote.json` holds.
    struct Stored: Codable, Equatable, Sendable {
        /// The revisions a stored board may have: each push counts on from the last.
        static let revisions = 0...999_999_999

        var revision: Int
        var board: TasksSnapshot

        /// A revision outside ``revisions`` (a hand-edited file), which a push could not count on from.
        struct InvalidRevision: Error, Equatable, CustomStringConvertible {
            let revision: Int

            var description: String {
                "revision \(revision) is not a number from \(revisions.lowerBound) to \(revisions.upperBound)"
            }
        }

        func validated() throws -> Stored {
            guard Self.revisions.contains(revision) else { throw InvalidRevision(revision: revision) }
            return Stored(revision: revision, board: try board.validated())
        }
    }

    /// A call that failed, as a real server or network would.
    struct Failure: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private struct Storage {
        var stored: Stored?
        var calls = 0
        var generator: SeededGenerator
    }

    private let configuration: Configuration
    private let sleeper: Sleeper
    private let file: JSONFile<Stored>?
    private let storage: Mutex<Storage>

    init(configuration: Configuration, sleeper: Sleeper, file: JSONFile<Stored>? = nil, stored: Stored? = nil) {
        self.configuration = configuration
        self.sleeper = sleeper
        self.file = file
        self.storage = Mutex(Storage(stored: stored, generator: SeededGenerator(seed: configuration.seed)))
    }

    /// How many calls were made, including failed and cancelled ones.
    var callCount: Int {
        storage.withLock { $0.calls }
    }

    /// Uploads the board, replacing what the remote had. Returns the remote's new revision.
    func push(_ board: TasksSnapshot) async throws -> Int {
        let failure = nextFailure()
        try await sleeper.sleep(for: configuration.latency)
        if let failure { throw failure }
        let stored = storage.withLock { storage in
            let stored = Stored(revision: (storage.stored?.revision ?? 0) + 1, board: board)
            storage.stored = stored
            return stored
        }
        do {
            try file?.save(stored)
        } catch {
            throw Failure(description: "the remote could not store the board (\(ErrorText.describe(error)))")
        }
        return stored.revision
    }

    /// Downloads the board, or `nil` if nothing was ever pushed.
    func pull() async throws -> Stored? {
        let failure = nextFailure()
        try await sleeper.sleep(for: configuration.latency)
        if let failure { throw failure }
        return storage.withLock { $0.stored }
    }

    /// Decides, when a call starts, whether it will fail and how.
    private func nextFailure() -> Failure? {
        storage.withLock { storage in
            storage.calls += 1
            let roll = Double.random(in: 0..<1, using: &storage.generator)
            guard storage.calls <= configuration.failFirst || roll < configuration.failureRate else { return nil }
            let reasons = ["503 service unavailable", "connection reset by peer", "request timed out"]
            let reason = reasons[Int.random(in: 0..<reasons.count, using: &storage.generator)]
            return Failure(description: reason)
        }
    }
}
