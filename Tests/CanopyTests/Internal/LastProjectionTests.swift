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
        #expect(AtomicLastProjection<Int>.fits)
        #expect(AtomicLastProjection<Bool>.fits)
        #expect(!AtomicLastProjection<String>.fits)
        #expect(!AtomicLastProjection<Int?>.fits)
    }

    @Test func anAtomicCellLetsTheFirstAndEveryChangeThrough() {
        let numbers = AtomicLastProjection<Int>()
        #expect(numbers.repeats(0) == false)
        #expect(numbers.repeats(0) == true)
        #expect(numbers.repeats(-1) == false)
        #expect(numbers.repeats(0) == false)
        let flags = AtomicLastProjection<Bool>()
        // `false` is remembered as a value, not taken for "nothing yet".
        #expect(flags.repeats(false) == false)
        #expect(flags.repeats(false) == true)
        #expect(flags.repeats(true) == false)
        #expect(flags.repeats(true) == true)
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

    @inline(never)
    private static func subscribe<Value: Equatable & Sendable>(
        _ store: StateStore<Sample, Sample>,
        to keyPath: any KeyPath<Sample, Value> & Sendable,
        recording values: StateRecorder<Value>
    ) -> Subscription {
        store.subscribe(removeStateDuplicates: .keyPath(keyPath)) { values.record($0[keyPath: keyPath]) }
    }
}
