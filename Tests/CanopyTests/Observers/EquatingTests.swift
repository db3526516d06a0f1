import Testing

@testable import Canopy

@Suite struct EquatingTests {
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
}
