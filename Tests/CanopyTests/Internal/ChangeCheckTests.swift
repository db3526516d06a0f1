import Testing

@testable import Canopy

// A child store whose last handle goes leaves the tree and is woken no more, and Swift may release a
// local right after its last use, so a test that checks which children an action wakes holds them until
// then.
@Suite(.timeLimit(.minutes(1))) struct ChangeCheckTests {
    private struct Point: Equatable {
        var x = 0
        var y = 0
    }

    private struct Unequatable {
        var value = 0
    }

    /// `==` that treats every value as equal: the check must use the type's own `==`, not its bits.
    private struct AlwaysEqual: Equatable {
        var value = 0

        static func == (lhs: Self, rhs: Self) -> Bool { true }
    }

    /// Subscribes to `store` a recorder of the local part of its state.
    private func recordLocal<Parent, Local>(of store: StateStore<(Parent, Local), Int>) -> StateRecorder<Local> {
        let recorder = StateRecorder<Local>()
        store.subscribe(
            observer: Observer { state in
                recorder.record(state.1)
                return .active
            }
        )
        return recorder
    }

    @Test func anEquatablePlainDataStateIsCheckedWithItsOwnEquality() throws {
        let check = try #require(ChangeCheck<Int, Int>.make())
        let reducer: Reducer<Int, Int> = { value, amount in value += amount }
        var value = 1
        #expect(check.reduce(&value, 2, reducer))
        #expect(value == 3)
        #expect(!check.reduce(&value, 0, reducer))
        #expect(value == 3)

        let alwaysEqual = try #require(ChangeCheck<AlwaysEqual, Int>.make())
        let setter: Reducer<AlwaysEqual, Int> = { state, value in state.value = value }
        var state = AlwaysEqual()
        #expect(!alwaysEqual.reduce(&state, 5, setter))
        #expect(state.value == 5)
    }

    @Test func statesThatAreNotEquatablePlainDataAreNotChecked() {
        #expect(ChangeCheck<Unequatable, Int>.make() == nil)
        // Equatable but holding a reference: its "before" copy would make the reducer copy its storage.
        #expect(ChangeCheck<String, Int>.make() == nil)
        #expect(ChangeCheck<[Int], Int>.make() == nil)
    }

    @Test func oneCheckIsSharedPerPairOfTypes() throws {
        let first = try #require(ChangeCheck<Point, Int>.shared())
        let second = try #require(ChangeCheck<Point, Int>.shared())
        #expect(first === second)
        let otherAction = try #require(ChangeCheck<Point, String>.shared())
        #expect(otherAction !== first as AnyObject)
        #expect(ChangeCheck<Unequatable, Int>.shared() == nil)
        #expect(ChangeCheck<Unequatable, Int>.shared() == nil)
    }

    @Test func anActionThatLeavesTheRootAsItWasWakesOnlyItsChild() async {
        // The root's reducer leaves its state as it was, so the sibling's observer sees only its first
        // state; the child's own observer sees both.
        let root = StateStore<Int, Int>(0) { _, _ in }
        let child = root.with(Point()) { point, amount in point.x += amount }
        let sibling = root.with(Point()) { point, amount in point.y += amount }
        let childStates = recordLocal(of: child)
        let siblingStates = recordLocal(of: sibling)
        child.dispatch(1)
        #expect(await childStates.waitFor(count: 2) == [Point(), Point(x: 1)])
        _ = await root.state
        #expect(siblingStates.values == [Point()])
        withExtendedLifetime(sibling) {}
    }

    @Test func aChildWhoseLocalStateDidNotChangeWakesNoneOfItsChildren() async {
        // An action to a grandchild goes up through its parent, whose reducer leaves its local state as
        // it was: the parent's other child is not visited, while the grandchild sees its new state.
        let root = StateStore<Int, Int>(0) { _, _ in }
        let parent = root.with(Point()) { _, _ in }
        let target = parent.with(0) { value, amount in value += amount }
        let other = parent.with(0) { _, _ in }
        let targetStates = recordLocal(of: target)
        let otherStates = recordLocal(of: other)
        target.dispatch(2)
        #expect(await targetStates.waitFor(count: 2) == [0, 2])
        _ = await root.state
        #expect(otherStates.values == [0])
        withExtendedLifetime(other) {}
    }

    @Test func aStateWithReferencesCountsAsChanged() async {
        // A `String` root state is `Equatable` but not plain data: it is not compared, so an action
        // that leaves it as it was still wakes every listening child.
        let root = StateStore<String, Int>("") { _, _ in }
        let child = root.with(0) { value, amount in value += amount }
        let sibling = root.with(0) { _, _ in }
        let siblingStates = recordLocal(of: sibling)
        child.subscribe(observer: Observer { _ in .active })
        child.dispatch(1)
        #expect(await siblingStates.waitFor(count: 2) == [0, 0])
        withExtendedLifetime(sibling) {}
    }

    @Test func aRootMadeWithMiddlewareChecksItsStateToo() async {
        // The initializer that takes middleware makes the root's change check as the others do.
        let root = StateStore<Int, Int>(
            0,
            middlewares: [Middleware("pass") { action, context in context.next(action) }],
            reducer: { _, _ in }
        )
        let child = root.with(0) { value, amount in value += amount }
        let sibling = root.with(0) { _, _ in }
        let siblingStates = recordLocal(of: sibling)
        child.subscribe(observer: Observer { _ in .active })
        child.dispatch(1)
        _ = await child.state
        _ = await root.state
        #expect(siblingStates.values == [0])
        withExtendedLifetime(sibling) {}
    }
}
