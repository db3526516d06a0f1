import Testing

@testable import Canopy

/// Objects made once per generic instantiation: the first one made is the one every later caller gets.
@Suite(.timeLimit(.minutes(1))) struct SharedPerTypeTests {
    /// A class of its own per test, so that no other test has filled the table for it.
    private final class Made<Tag>: Sendable {
        let name: String

        init(_ name: String) {
            self.name = name
        }
    }

    private enum First {}
    private enum Second {}
    private enum Nothing {}

    @Test func theFirstObjectMadeForAnInstantiationIsSharedAndMadeOnce() {
        var calls = 0
        let first = SharedPerType.shared(Made<First>.self) {
            calls += 1
            return Made("first")
        }
        let again = SharedPerType.shared(Made<First>.self) {
            calls += 1
            return Made("second")
        }
        #expect(first === again)
        #expect(again?.name == "first")
        #expect(calls == 1)
        // Another instantiation of the same class has its own.
        let other = SharedPerType.shared(Made<Second>.self) { Made("other") }
        #expect(other?.name == "other")
    }

    @Test func nothingMadeIsKeptTooAndNotAskedForAgain() {
        var calls = 0
        let first = SharedPerType.shared(Made<Nothing>.self) { () -> Made<Nothing>? in
            calls += 1
            return nil
        }
        let again = SharedPerType.shared(Made<Nothing>.self) {
            calls += 1
            return Made("late")
        }
        #expect(first == nil && again == nil)
        #expect(calls == 1)
    }

    @Test func childrenOfTheSameTypesShareOneKindAndOthersHaveTheirOwn() {
        struct Local: Equatable {
            var value = 0
        }
        let compose: Compose<Int, Local, (Int, Local)> = { _, _, _, _, _, _ in nil }
        let first = ChildKind<Int, Local, (Int, Local), Int>.shared(compose: compose)
        let second = ChildKind<Int, Local, (Int, Local), Int>.shared(compose: compose)
        #expect(first === second)
        #expect(first.changeCheck != nil)
        let otherAction = ChildKind<Int, Local, (Int, Local), String>.shared { _, _, _, _, _, _ in nil }
        #expect(ObjectIdentifier(otherAction) != ObjectIdentifier(first))
        // A local state that is not `Equatable` plain data has no check.
        let strings = ChildKind<Int, [String], (Int, [String]), Int>.shared { _, _, _, _, _, _ in nil }
        #expect(strings.changeCheck == nil)
    }
}
