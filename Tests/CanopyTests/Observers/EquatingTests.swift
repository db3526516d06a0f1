import Foundation
import Testing

@testable import Canopy

@Suite(.timeLimit(.minutes(1))) struct EquatingTests {
    private struct Item: Identifiable, Equatable, Sendable {
        var id: Int
        var title: String
    }

    @Test func neverEqualTreatsNothingAsDuplicate() {
        #expect(!Equating<Int>.neverEqual.predicate(1, 1))
    }

    @Test func alwaysEqualTreatsEverythingAsDuplicate() {
        #expect(Equating<Int>.alwaysEqual.predicate(1, 2))
    }

    @Test func equalValueComparesTheExtractedValue() {
        let sameLength = Equating<String>.equal(value: \.count)
        #expect(sameLength.predicate("ab", "cd"))
        #expect(!sameLength.predicate("ab", "abc"))
    }

    @Test func keyPathComparesTheValueAtThePath() {
        let sameTitle = Equating<Item>.keyPath(\.title)
        #expect(sameTitle.predicate(Item(id: 1, title: "a"), Item(id: 2, title: "a")))
        #expect(!sameTitle.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "b")))
    }

    /// `Int` and `Bool` key paths have overloads of their own, which compare the values as `Int`s.
    @Test func intAndBoolKeyPathsCompareTheValueAtThePath() {
        struct Counter: Sendable {
            var count: Int
            var isOn: Bool
        }
        let sameCount = Equating<Counter>.keyPath(\.count)
        #expect(sameCount.predicate(Counter(count: -1, isOn: true), Counter(count: -1, isOn: false)))
        #expect(!sameCount.predicate(Counter(count: 1, isOn: true), Counter(count: -1, isOn: true)))
        let sameSwitch = Equating<Counter>.keyPath(\.isOn)
        #expect(sameSwitch.predicate(Counter(count: 1, isOn: false), Counter(count: 2, isOn: false)))
        #expect(!sameSwitch.predicate(Counter(count: 1, isOn: true), Counter(count: 1, isOn: false)))
        let passed = StateRecorder<Bool>()
        #expect(sameSwitch.makeFilter != nil && sameSwitch.makeCheck == nil)  // kept in atomics
        let check = sameSwitch.check(gate: CallGate(host: nil, callingThread: CallingThread())) {
            passed.record($0.isOn)
        }
        for isOn in [false, false, true, true, false] {
            #expect(check?(Counter(count: 0, isOn: isOn)) == .active)
        }
        #expect(passed.values == [false, true, false])
    }

    @Test func asEquatableUsesEquality() {
        #expect(Equating<Item>.asEquatable.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "a")))
        #expect(!Equating<Item>.asEquatable.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "b")))
    }

    @Test func asIdentifiableComparesIDsOnly() {
        #expect(Equating<Item>.asIdentifiable.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "b")))
        #expect(!Equating<Item>.asIdentifiable.predicate(Item(id: 1, title: "a"), Item(id: 2, title: "a")))
    }

    @Test func andNeedsBothToCallItDuplicate() {
        let both = Equating<Item>.keyPath(\.id) && .keyPath(\.title)
        #expect(both.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "a")))
        #expect(!both.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "b")))
        #expect(!both.predicate(Item(id: 1, title: "a"), Item(id: 2, title: "a")))
    }

    @Test func withNeedsEveryMemberToCallItDuplicate() {
        let all = Equating<Item>.with([.keyPath(\.id), .keyPath(\.title)])
        #expect(all.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "a")))
        #expect(!all.predicate(Item(id: 1, title: "a"), Item(id: 1, title: "b")))
        #expect(Equating<Item>.with([]).predicate(Item(id: 1, title: "a"), Item(id: 2, title: "b")))
    }

    @Test func predicateInitializerIsUsedAsGiven() {
        let closeEnough = Equating<Double> { abs($0 - $1) < 0.5 }
        #expect(closeEnough.predicate(1.0, 1.2))
        #expect(!closeEnough.predicate(1.0, 2.0))
    }

    @Test func projectingEquatingsMakeACheckThatReadsTheLastAcceptedProjection() throws {
        let reads = StateRecorder<Int>()
        let passed = StateRecorder<Int>()
        let equating = Equating<Item>.equal { item in
            reads.record(item.id)
            return item.title
        }
        let gate = CallGate(host: nil, callingThread: CallingThread())
        #expect(equating.makeCheck != nil && equating.makeFilter == nil)  // kept under a lock
        let check = try #require(equating.check(gate: gate) { item in passed.record(item.id) })
        #expect(check(Item(id: 1, title: "a")) == .active)
        #expect(check(Item(id: 2, title: "a")) == .active)
        #expect(check(Item(id: 3, title: "b")) == .active)
        #expect(check(Item(id: 4, title: "b")) == .active)
        gate.cancel()
        // Closed: a state that passes reaches no handler, and the node is told to let the observer go.
        #expect(check(Item(id: 5, title: "a")) == .dead)
        #expect(check(Item(id: 6, title: "a")) == .active)  // a duplicate is dropped before the gate
        #expect(passed.values == [1, 3])
        #expect(reads.values == [1, 2, 3, 4, 5, 6])  // one projection per state
        #expect(Equating<Item>.keyPath(\.title).makeCheck != nil)
        #expect(Equating<Item>.equal { $0.id }.makeFilter != nil)  // an `Int`, converted
    }

    @Test func combinedAndPredicateEquatingsHaveNoCompiledCheck() {
        let gate = CallGate(host: nil, callingThread: CallingThread())
        #expect(Equating<Item>.asEquatable.check(gate: gate) { _ in } == nil)
        #expect((Equating<Item>.keyPath(\.id) && .keyPath(\.title)).check(gate: gate) { _ in } == nil)
        #expect(Equating<Item>.with([.keyPath(\.id)]).check(gate: gate) { _ in } == nil)
    }

    @Test func keyPathDeduplicationDeliversWhatThePredicateWould() async {
        let store = StateStore<Item, Int>(Item(id: 0, title: "")) { item, action in
            item.id = action
            item.title = String(action % 3 == 0 ? "x" : "y")
        }
        let byFilter = StateRecorder<Int>()
        let byPredicate = StateRecorder<Int>()
        let keyPath = Equating<Item>.keyPath(\.title)
        let plain = Equating<Item>(predicate: keyPath.predicate)
        let first = store.subscribe(removeStateDuplicates: keyPath) { byFilter.record($0.id) }
        let second = store.subscribe(removeStateDuplicates: plain) { byPredicate.record($0.id) }
        for action in [1, 2, 3, 6, 9, 4, 5, 12, 7] { store.dispatch(action) }
        await store.send(8)
        #expect(byFilter.values == [0, 1, 3, 4, 12, 7])
        #expect(byFilter.values == byPredicate.values)
        first.cancel()
        second.cancel()
    }
}
