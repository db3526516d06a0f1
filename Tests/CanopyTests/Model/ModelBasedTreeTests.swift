import Testing

@testable import Canopy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Model-based random tests of the store tree.
//
// Each sequence is a random list of operations (children and views at random depths, raw and
// deduplicating subscriptions, cancels, dropped handles, dispatches to random stores, effect restarts
// and cancels on a manual clock), run on real stores and on `TreeModel`, a plain implementation of
// SPEC §2 written for these tests. Every observer's states, every store's final state and which nodes
// are alive must agree. On a failure the test prints the seed and a shrunk sequence.
//
// Environment:
//   CANOPY_SEED=<n>         replays the one sequence with seed n (as printed by a failure)
//   CANOPY_SEQUENCES=<n>    how many sequences to run (default 2000; CI runs fewer under TSan)
//   CANOPY_SEED_BASE=<n>    the first seed (default 1); sequences use seeds base, base + 1, …
//
// A long soak run, for local use before a release or after touching Sources/Canopy/Tree (each run of
// 100,000 sequences, with 10,000 concurrent ones, takes about three minutes; the suite's time limit is
// five):
//   for base in 1000000 2000000 3000000 4000000; do
//       CANOPY_SEQUENCES=100000 CANOPY_SEED_BASE=$base swift test --filter ModelBased || break
//   done
@Suite(.timeLimit(.minutes(5))) struct ModelBasedTreeTests {
    private static func environment(_ name: String) -> UInt64? {
        ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
    }

    /// The seeds to run: the one replayed, or `count` consecutive ones.
    static func seeds(defaultCount: Int) -> [UInt64] {
        if let seed = environment("CANOPY_SEED") { return [seed] }
        let count = environment("CANOPY_SEQUENCES").map(Int.init) ?? defaultCount
        let base = environment("CANOPY_SEED_BASE") ?? 1
        return (0..<UInt64(count)).map { base &+ $0 }
    }

    static func operations(seed: UInt64) -> [TreeOperation] {
        var random = SplitMix64(seed: seed)
        return TreeOperation.sequence(count: 8 + random.next(below: 40), using: &random)
    }

    @Test func randomSequencesMatchTheModel() async {
        var failures: [String] = []
        for seed in Self.seeds(defaultCount: 2000) {
            let operations = Self.operations(seed: seed)
            guard let failure = await TreeRunner().run(operations) else { continue }
            let (shrunk, shrunkFailure) = await Self.shrink(operations, failure: failure)
            failures.append(
                """
                seed \(seed) (replay with CANOPY_SEED=\(seed)): \(failure)
                shrunk to \(shrunk.count) of \(operations.count) operations, failing with: \(shrunkFailure)
                \(shrunk.map { "    .\($0)," }.joined(separator: "\n"))
                """
            )
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    @Test func concurrentDispatchAgreesWithTheModel() async {
        var failures: [String] = []
        for seed in Self.seeds(defaultCount: 2000).prefix(Self.concurrentCount) {
            var random = SplitMix64(seed: seed)
            let structure = TreeOperation.sequence(count: 4 + random.next(below: 24), using: &random)
            let failure = await TreeRunner().runConcurrently(
                structure: structure,
                producers: 2 + random.next(below: 3),
                actionsPerProducer: 50 + random.next(below: 100),
                using: &random
            )
            guard let failure else { continue }
            failures.append(
                """
                seed \(seed) (replay with CANOPY_SEED=\(seed)): \(failure)
                structure:
                \(structure.map { "    .\($0)," }.joined(separator: "\n"))
                """
            )
            if failures.count >= 3 { break }
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
    }

    /// Concurrent runs cost more (threads, hundreds of actions each): a tenth of the sequences.
    private static var concurrentCount: Int {
        max(Self.seeds(defaultCount: 2000).count / 10, 1)
    }

    /// The shortest sub-sequence found (removing chunks, then single steps) that still fails.
    static func shrink(_ operations: [TreeOperation], failure: String) async -> ([TreeOperation], String) {
        var current = operations
        var currentFailure = failure
        var chunk = max(current.count / 2, 1)
        var attempts = 0
        while chunk >= 1, attempts < 400 {
            var start = 0
            var removedAny = false
            while start < current.count, attempts < 400 {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, current.count))
                attempts += 1
                if let failure = await TreeRunner().run(candidate) {
                    current = candidate
                    currentFailure = failure
                    removedAny = true
                } else {
                    start += chunk
                }
            }
            if !removedAny || chunk > 1 { chunk /= 2 }
        }
        return (current, currentFailure)
    }

    @Test func theMatcherToleratesOnlySkippableStates() {
        let expected = [
            TreeModel.Expected(state: [1], optional: false),
            TreeModel.Expected(state: [1], optional: true),
            TreeModel.Expected(state: [2], optional: false),
        ]
        #expect(TreeRunner.matches([[1], [2]], expected, cap: nil))
        #expect(TreeRunner.matches([[1], [1], [2]], expected, cap: nil))
        #expect(!TreeRunner.matches([[1]], expected, cap: nil))
        #expect(!TreeRunner.matches([[1], [2], [2]], expected, cap: nil))
        #expect(!TreeRunner.matches([[2]], expected, cap: nil))
        #expect(TreeRunner.matches([[1]], expected, cap: 1))
        #expect(!TreeRunner.matches([[1], [1], [2]], expected, cap: 2))
        // A received state equal to a skippable one may be the required one after it.
        let skippableFirst = [
            TreeModel.Expected(state: [0], optional: false),
            TreeModel.Expected(state: [0], optional: true),
            TreeModel.Expected(state: [0], optional: false),
        ]
        #expect(TreeRunner.matches([[0], [0]], skippableFirst, cap: nil))
        #expect(TreeRunner.matches([[0], [0], [0]], skippableFirst, cap: nil))
        #expect(!TreeRunner.matches([[0]], skippableFirst, cap: nil))
        #expect(!TreeRunner.matches([[0], [0], [0], [0]], skippableFirst, cap: nil))
    }

    @Test func theSameSeedMakesTheSameSequence() {
        #expect(Self.operations(seed: 42).map(\.description) == Self.operations(seed: 42).map(\.description))
        #expect(Self.operations(seed: 42).map(\.description) != Self.operations(seed: 43).map(\.description))
    }
}
