import Testing

@testable import Canopy

/// The laws and slices of `Reducers`: order, identity, associativity, and that each form touches only
/// what its action names.
@Suite struct ReducersTests {
    struct Item: Identifiable, Equatable, Sendable {
        let id: Int
        var count = 0
    }

    struct Model: Equatable, Sendable {
        var log: [String] = []
        var counter = 0
        var other = 0
        var items: [Item] = []
        var detail: Int?
    }

    enum Action: Equatable, Sendable {
        case counter(Int)
        case item(id: Int, Int)
        case detail(Int)
        case other

        static func counterAction(_ action: Action) -> Int? {
            if case .counter(let value) = action { value } else { nil }
        }

        static func itemAction(_ action: Action) -> (Int, Int)? {
            if case .item(let id, let value) = action { (id, value) } else { nil }
        }

        static func detailAction(_ action: Action) -> Int? {
            if case .detail(let value) = action { value } else { nil }
        }
    }

    private static func logging(_ name: String) -> Reducer<Model, Action> {
        { state, _ in state.log.append(name) }
    }

    private static let actions: [Action] = [.counter(1), .other, .item(id: 1, 2), .detail(3)]

    private static func apply(_ reducer: Reducer<Model, Action>, to state: Model = Model()) -> Model {
        var state = state
        for action in actions {
            reducer(&state, action)
        }
        return state
    }

    @Test func combineRunsReducersInOrderOnTheSameState() {
        let doubled: Reducer<Model, Action> = { state, _ in state.counter *= 2 }
        let incremented: Reducer<Model, Action> = { state, _ in state.counter += 1 }
        var state = Model(counter: 3)
        Reducers.combine(doubled, incremented)(&state, .other)
        #expect(state.counter == 7)
        state.counter = 3
        Reducers.combine(incremented, doubled)(&state, .other)
        #expect(state.counter == 8)
        let state2 = Self.apply(Reducers.combine(Self.logging("a"), Self.logging("b"), Self.logging("c")))
        #expect(state2.log == Array(repeating: ["a", "b", "c"], count: Self.actions.count).flatMap { $0 })
    }

    @Test func combineOfNothingIsTheIdentity() {
        let start = Model(log: ["x"], counter: 4, items: [Item(id: 1)], detail: 2)
        #expect(Self.apply(Reducers.combine([Reducer<Model, Action>]()), to: start) == start)
        let one = Self.logging("a")
        #expect(Self.apply(Reducers.combine(one, Reducers.combine())) == Self.apply(one))
        #expect(Self.apply(Reducers.combine(Reducers.combine(), one)) == Self.apply(one))
    }

    @Test func combineIsAssociative() {
        let (a, b, c) = (Self.logging("a"), Self.logging("b"), Self.logging("c"))
        let left = Reducers.combine(Reducers.combine(a, b), c)
        let right = Reducers.combine(a, Reducers.combine(b, c))
        #expect(Self.apply(left) == Self.apply(right))
        #expect(Self.apply(left) == Self.apply(Reducers.combine([a, b, c])))
    }

    @Test func scopeChangesOnlyItsSliceAndOnlyForItsActions() {
        let reducer: Reducer<Model, Action> = Reducers.scope(
            state: \.counter,
            action: Action.counterAction,
            reducer: { count, amount in count += amount }
        )
        let start = Model(counter: 1, other: 5, items: [Item(id: 1)], detail: 0)
        var state = start
        reducer(&state, .counter(2))
        #expect(state == Model(counter: 3, other: 5, items: [Item(id: 1)], detail: 0))
        for action in [Action.other, .item(id: 1, 1), .detail(1)] {
            reducer(&state, action)
        }
        #expect(state.counter == 3)
        #expect(state.items == start.items && state.detail == start.detail && state.other == start.other)
    }

    @Test func forEachReducesOnlyTheElementWithTheMatchingID() {
        let reducer: Reducer<Model, Action> = Reducers.forEach(
            \.items,
            action: Action.itemAction,
            reducer: { item, amount in item.count += amount }
        )
        var state = Model(items: [Item(id: 1), Item(id: 2), Item(id: 3)])
        reducer(&state, .item(id: 2, 5))
        #expect(state.items == [Item(id: 1), Item(id: 2, count: 5), Item(id: 3)])
        reducer(&state, .counter(9))
        #expect(state.items == [Item(id: 1), Item(id: 2, count: 5), Item(id: 3)])
        #expect(state.counter == 0)
    }

    @Test func forEachWithAMissingIDChangesNothing() {
        let reducer: Reducer<Model, Action> = Reducers.forEach(
            \.items,
            action: Action.itemAction,
            reducer: { item, amount in item.count += amount }
        )
        let start = Model(items: [Item(id: 1)])
        var state = start
        reducer(&state, .item(id: 42, 1))
        #expect(state == start)
    }

    @Test func forEachByKeyPathFindsElementsByThatKey() {
        struct Row: Equatable, Sendable {
            let name: String
            var hits = 0
        }
        struct Table: Equatable, Sendable { var rows: [Row] }
        let reducer: Reducer<Table, String> = Reducers.forEach(
            \.rows,
            id: \.name,
            action: { name in (name, 1) },
            reducer: { row, amount in row.hits += amount }
        )
        var table = Table(rows: [Row(name: "a"), Row(name: "b")])
        reducer(&table, "b")
        reducer(&table, "b")
        reducer(&table, "zzz")
        #expect(table == Table(rows: [Row(name: "a"), Row(name: "b", hits: 2)]))
    }

    @Test func ifLetRunsOnlyWhileTheOptionalHoldsAValue() {
        let reducer: Reducer<Model, Action> = Reducers.ifLet(
            state: \.detail,
            action: Action.detailAction,
            reducer: { detail, amount in detail += amount }
        )
        var state = Model()
        reducer(&state, .detail(3))
        #expect(state == Model())
        state.detail = 10
        reducer(&state, .detail(3))
        reducer(&state, .counter(1))
        #expect(state == Model(detail: 13))
    }
}
