import Synchronization

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

extension Effect {
    /// Where an ``Effect/State`` gets the identity of each run: ``Effect/State/run(maxAttempts:delay:)``
    /// and ``Effect/State/restart(maxAttempts:delay:)`` take the next one from the `effectRunIDs`
    /// dependency in force where they are called (for a reducer, the scope its store was made in).
    ///
    /// The app uses ``random``, so that a value persisted by an earlier launch never collides with a new
    /// run. A test that compares whole states uses ``counting()``: the identities are then
    /// ``counted(_:)`` 1, 2, 3… in the order runs start, and a second counter started afresh gives the
    /// same ones to the values the test expects.
    ///
    /// ```swift
    /// let store = withDependencies { $0.effectRunIDs = .counting() } operation: { makeFeed() }
    /// let expected = withDependencies { $0.effectRunIDs = .counting() } operation: {
    ///     Effect.State.running(maxAttempts: 3)
    /// }
    /// #expect(await store.send(.open).load == expected)
    /// ```
    public struct RunIDs: Sendable {
        let next: @Sendable () -> UUID

        /// Identities made by `next`, which must give a new one on each call.
        ///
        /// - Parameter next: Makes the identity of the next run.
        public init(_ next: @escaping @Sendable () -> UUID) {
            self.next = next
        }

        /// A random UUID for each run: the default.
        public static var random: RunIDs {
            RunIDs { UUID() }
        }

        /// ``counted(_:)`` 1, 2, 3… in the order runs start; each call makes a new counter.
        ///
        /// - Returns: Identities that a test can predict.
        public static func counting() -> RunIDs {
            let counter = RunCounter()
            return RunIDs { counted(counter.next()) }
        }

        /// The identity ``counting()`` gives the `number`th run: the UUID whose last eight bytes are
        /// `number` (`00000000-0000-0000-0000-000000000001` for 1).
        ///
        /// - Parameter number: The run's number, from 1.
        /// - Returns: Its identity.
        public static func counted(_ number: UInt64) -> UUID {
            UUID(high: 0, low: number)
        }
    }
}

/// The counter behind ``Effect/RunIDs/counting()``, shared by every copy of the generator.
private final class RunCounter: Sendable {
    private let count = Atomic<UInt64>(0)

    func next() -> UInt64 {
        count.add(1, ordering: .relaxed).newValue
    }
}

/// The entry behind ``Dependencies/effectRunIDs``.
private struct EffectRunIDsKey: DependencyKey {
    static let defaultValue = Effect.RunIDs.random
}

extension Dependencies {
    /// Where ``Effect/State`` gets the identity of each run; ``Effect/RunIDs/random`` unless a test sets
    /// ``Effect/RunIDs/counting()``.
    public var effectRunIDs: Effect.RunIDs {
        get { self[EffectRunIDsKey.self] }
        set { self[EffectRunIDsKey.self] = newValue }
    }
}
