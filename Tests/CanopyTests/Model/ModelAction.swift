@testable import Canopy

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one action type of every store in the random trees, so that stores of any shape share it.
enum ModelAction: Sendable, Equatable, CustomStringConvertible {
    /// Folded into the state in an order-sensitive way: a reordered or lost action shows.
    case tag(Int)
    /// Added to the state: commutative, for actions sent from several threads at once. `producer` and
    /// `sequence` let the root check that each producer's actions arrive in the order sent.
    case add(producer: Int, sequence: Int, amount: Int)
    /// Drives a job child's `Effect.State`; other stores fold its code like a tag.
    case job(JobCommand)

    var description: String {
        switch self {
        case .tag(let tag): ".tag(\(tag))"
        case .add(let producer, let sequence, let amount): ".add(\(producer), \(sequence), \(amount))"
        case .job(let command): ".job(.\(command))"
        }
    }

    /// What a plain store (not a job child) does with an action.
    static func fold(_ value: inout Int, _ action: ModelAction) {
        switch action {
        case .tag(let tag): value = value &* 31 &+ tag
        case .add(_, _, let amount): value &+= amount
        case .job(let command): value = value &* 31 &+ command.code
        }
    }
}

enum JobCommand: Sendable, Equatable {
    case restart(delay: Int)
    case cancel
    case succeed

    var code: Int {
        switch self {
        case .restart(let delay): 1000 + delay
        case .cancel: 2000
        case .succeed: 3000
        }
    }

    /// What a job child does with its effect state.
    static func reduce(_ job: inout Effect.State, _ action: ModelAction) {
        guard case .job(let command) = action else { return }
        switch command {
        case .restart(let delay): job.restart(maxAttempts: 1, delay: TimeInterval(delay))
        case .cancel: job.cancel()
        case .succeed: job.succeed()
        }
    }

    /// The job's state as a number in the flattened state: its status and attempt.
    static func code(_ job: Effect.State) -> Int {
        job.status.rawValue * 100 + (job.currentAttempt ?? 0)
    }
}

/// The state transforms random views use; the lossy ones make equal consecutive states.
enum StateMap: Sendable, CaseIterable {
    case identity, modulo, last, sum

    func apply(_ state: [Int]) -> [Int] {
        switch self {
        case .identity: state
        case .modulo: state.map { (($0 % 7) + 7) % 7 }
        case .last: [state.last ?? 0]
        case .sum: [state.reduce(0, &+) % 5]
        }
    }
}

/// The action transforms random views use.
enum ActionMap: Sendable, CaseIterable {
    case identity, shift, triple

    func apply(_ action: ModelAction) -> ModelAction {
        switch (self, action) {
        case (.identity, _), (_, .job): action
        case (.shift, .tag(let tag)): .tag(tag &+ 1)
        case (.shift, .add(let producer, let sequence, let amount)):
            .add(producer: producer, sequence: sequence, amount: amount &+ 1)
        case (.triple, .tag(let tag)): .tag(tag &* 3)
        case (.triple, .add(let producer, let sequence, let amount)):
            .add(producer: producer, sequence: sequence, amount: amount &* 3)
        }
    }
}

/// The deduplications random subscriptions use; all but `never` and `always` are equivalences.
///
/// Each way an equating checks is among them: a predicate (`equal`, `lastElement`, `never`, `always`),
/// a projection kept in atomics, which a store's list of observers runs in its own loop (`sum`, an
/// `Int` key path; `sumIsEven`, a `Bool` one), and a projection kept under a lock (`first`, an `Int?`).
enum EquatingKind: Sendable, CaseIterable {
    case equal, lastElement, never, always, sum, sumIsEven, first

    var equating: Equating<[Int]> {
        switch self {
        case .equal: .asEquatable
        case .lastElement: Equating { $0.last == $1.last }
        case .never: .neverEqual
        case .always: .alwaysEqual
        case .sum: .keyPath(\.modelSum)
        case .sumIsEven: .keyPath(\.modelSumIsEven)
        case .first: .equal { $0.first }
        }
    }

    func isDuplicate(_ last: [Int], _ new: [Int]) -> Bool {
        switch self {
        case .equal: last == new
        case .lastElement: last.last == new.last
        case .never: false
        case .always: true
        case .sum: last.modelSum == new.modelSum
        case .sumIsEven: last.modelSumIsEven == new.modelSumIsEven
        case .first: last.first == new.first
        }
    }
}

extension [Int] {
    /// The flattened state's elements added up (wrapping): what the `sum` key-path equatings project,
    /// which changes with the actions of the store and of every store above it.
    var modelSum: Int {
        reduce(0, &+)
    }

    /// Whether ``modelSum`` is even.
    var modelSumIsEven: Bool {
        modelSum & 1 == 0
    }
}
