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
        // Types of this test's own, so that no other test's stores share these kinds.
        struct Local: Equatable {
            var value = 0
        }
        struct Names {
            var names: [String] = []
        }
        let first = ChildKind<Int, Local, (Int, Local), Int>.pairing()
        let second = ChildKind<Int, Local, (Int, Local), Int>.pairing()
        #expect(first === second)
        #expect(first.changeCheck != nil)
        let otherAction = ChildKind<Int, Local, (Int, Local), String>.pairing()
        #expect(ObjectIdentifier(otherAction) != ObjectIdentifier(first))
        // A local state that is not `Equatable` plain data has no check.
        #expect(ChildKind<Int, Names, (Int, Names), Int>.pairing().changeCheck == nil)
    }

    @Test func childStoresOfTheSameTypesShareTheKindThatComposesTheirState() async {
        struct Local: Equatable {
            var value = 0
        }
        let root = StateStore<Int, Int>(5) { state, action in state += action }
        let first = root.with(Local(value: 1)) { local, action in local.value += action }
        let second = root.with(Local(value: 2)) { local, action in local.value -= action }
        await first.send(3)
        let firstState = await first.state
        let secondState = await second.state
        #expect(firstState.0 == 8 && firstState.1.value == 4)
        #expect(secondState.0 == 8 && secondState.1.value == 2)
        #expect(ChildKind<Int, Local, (Int, Local), Int>.pairing().changeCheck != nil)
    }
}
