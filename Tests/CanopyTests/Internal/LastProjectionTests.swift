import Foundation
import Synchronization
import Testing

@testable import Canopy

/// Where a key path's dedup check remembers the last projection it let through: atomics for an `Int` or
/// a `Bool`, a lock for any other type. Each must let the first projection through, drop repeats, and
/// let changes through, whether the check is compiled for the concrete type or runs generic code.
@Suite struct LastProjectionTests {
    /// The state the subscriptions below project.
    private struct Sample: Sendable {
        var number = 0
        var flag = false
        var name = ""
    }

    @Test func intAndBoolProjectionsAreKeptInAtomicsAndOthersUnderALock() {
        #expect(EquatingProjection<Sample, Int>.isCountable)
        #expect(EquatingProjection<Sample, Bool>.isCountable)
        #expect(!EquatingProjection<Sample, String>.isCountable)
        #expect(!EquatingProjection<Sample, Int?>.isCountable)
        #expect(EquatingProjection<Sample, Int>.count(-7) == -7)
        #expect(EquatingProjection<Sample, Bool>.count(false) == 0)
        #expect(EquatingProjection<Sample, Bool>.count(true) == 1)
    }

    @Test func anAtomicFilterLetsTheFirstAndEveryChangeThrough() {
        let numbers = StateRecorder<Int>()
        let numberFilter = AtomicProjectionFilter<Sample>(project: \.number, gate: Self.openGate()) {
            numbers.record($0.number)
        }
        for number in [0, 0, -1, 0, 0] {
            #expect(numberFilter.check(Sample(number: number)) == .active)
        }
        #expect(numbers.values == [0, -1, 0])
        let flags = StateRecorder<Bool>()
        let flagFilter = AtomicProjectionFilter<Sample>(
            project: { $0.flag ? 1 : 0 },
            gate: Self.openGate(),
            handler: { flags.record($0.flag) }
        )
        // `false` is remembered as a value, not taken for "nothing yet".
        for flag in [false, false, true, true] {
            #expect(flagFilter.check(Sample(flag: flag)) == .active)
        }
        #expect(flags.values == [false, true])
    }

    @Test func anAtomicFilterAnswersDeadForAStateThatPassesOnceItsGateIsClosed() {
        let numbers = StateRecorder<Int>()
        let gate = Self.openGate()
        let filter = AtomicProjectionFilter<Sample>(project: \.number, gate: gate) { numbers.record($0.number) }
        #expect(filter.check(Sample(number: 1)) == .active)
        gate.cancel()
        #expect(filter.check(Sample(number: 1)) == .active)  // a duplicate is dropped before the gate
        #expect(filter.check(Sample(number: 2)) == .dead)
        #expect(numbers.values == [1])
    }

    @Test func aLockedCellLetsTheFirstAndEveryChangeThrough() {
        let names = Mutex<RememberedProjection<String>>()
        #expect(names.repeats("a") == false)
        #expect(names.repeats("a") == true)
        #expect(names.repeats("") == false)
        #expect(names.repeats("a") == false)
    }

    /// Each projection type's check in front of a subscription: the states it lets through.
    @Test func subscriptionsDeduplicateOnIntBoolAndStringProjections() async {
        let store = StateStore<Sample, Sample>(Sample()) { state, action in state = action }
        let numbers = StateRecorder<Int>()
        let flags = StateRecorder<Bool>()
        let names = StateRecorder<String>()
        let subscriptions = [
            store.subscribe(removeStateDuplicates: .keyPath(\.number)) { numbers.record($0.number) },
            store.subscribe(removeStateDuplicates: .keyPath(\.flag)) { flags.record($0.flag) },
            store.subscribe(removeStateDuplicates: .keyPath(\.name)) { names.record($0.name) },
        ]
        for sample in [
            Sample(number: 0, flag: false, name: ""), Sample(number: 1, flag: false, name: "a"),
            Sample(number: 1, flag: true, name: "a"), Sample(number: 0, flag: true, name: "b"),
        ] {
            await store.send(sample)
        }
        #expect(await numbers.waitFor(count: 3) == [0, 1, 0])
        #expect(await flags.waitFor(count: 2) == [false, true])
        #expect(await names.waitFor(count: 3) == ["", "a", "b"])
        withExtendedLifetime(subscriptions) {}
    }

    /// The same check made in code generic over the projection's type, where the cell's casts run.
    @Test func aCheckMadeInGenericCodeDeduplicatesTheSame() async {
        let store = StateStore<Sample, Sample>(Sample()) { state, action in state = action }
        let numbers = StateRecorder<Int>()
        let subscription = Self.subscribe(store, to: \.number, recording: numbers)
        for number in [0, 0, 2, 2, 3] {
            await store.send(Sample(number: number))
        }
        #expect(await numbers.waitFor(count: 3) == [0, 2, 3])
        withExtendedLifetime(subscription) {}
    }

    /// A gate with no node behind it, as a filter's tests need.
    private static func openGate() -> CallGate {
        CallGate(host: nil, callingThread: CallingThread())
    }

    @inline(never)
    private static func subscribe<Value: Equatable & Sendable>(
        _ store: StateStore<Sample, Sample>,
        to keyPath: any KeyPath<Sample, Value> & Sendable,
        recording values: StateRecorder<Value>
    ) -> Subscription {
        store.subscribe(removeStateDuplicates: .keyPath(keyPath)) { values.record($0[keyPath: keyPath]) }
    }
}
