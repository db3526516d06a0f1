import Canopy
import Dispatch
import Foundation
import Testing

// Store, observer and dedup call sites (SPEC 2.1, 2.4) written as a Puredux 2.x program writes them.
// The same file is compiled in Swift 5 and in Swift 6 language mode.

struct CounterState: Equatable {
    var count = 0
    var title: String?
}

enum CounterAction {
    case increment
    case rename(String)
}

@Sendable func reduceCounter(state: inout CounterState, action: CounterAction) {
    switch action {
    case .increment: state.count += 1
    case .rename(let title): state.title = title
    }
}

struct Tag: Identifiable, Equatable {
    let id: Int
    var label: String
}

@Suite(.timeLimit(.minutes(1)))
struct StoreCallSites {
    @Test func storesChildrenAndMappingsCompileAndWork() async {
        let reducer: Reducer<CounterState, CounterAction> = reduceCounter
        let root = StateStore<CounterState, CounterAction>(CounterState(), reducer: reducer)
        let background = StateStore<CounterState, CounterAction>(CounterState(), qos: .utility, reducer: reduceCounter)
        background.dispatch(.increment)

        let child: StateStore<(CounterState, Int), CounterAction> = root.with(0) { local, action in
            if case .increment = action { local += 10 }
        }
        let grandChild: StateStore<((CounterState, Int), String), CounterAction> = child.with("") { local, action in
            if case .rename(let title) = action { local = title }
        }
        let flat: AnyStore<(CounterState, Int, String), CounterAction> = grandChild.eraseToAnyStore().flatMap()

        let counts = Recorder<Int>()
        root.map { $0.count }.subscribe(
            observer: Observer { count in
                counts.record(count)
                return .active
            }
        )
        let titles = Recorder<String?>()
        root.flatMap(state: \.title).subscribe(
            observer: Observer(id: UUID()) { title in
                titles.record(title)
                return .active
            }
        )
        let locals = Recorder<Int>()
        flat.map(state: \.1).subscribe(
            observer: Observer { local in
                locals.record(local)
                return .active
            }
        )

        let dispatch: Dispatch<CounterAction> = { grandChild.dispatch($0) }
        dispatch(.increment)
        root.map(state: \.count).dispatch(.rename("a"))
        #expect(await counts.waitFor(count: 3) == [0, 1, 1])
        #expect(await titles.waitFor(count: 3) == [nil, nil, "a"])
        #expect(await locals.waitFor(count: 2).prefix(2) == [0, 10])
    }

    @Test func typeErasedStoresMapStatesAndActions() async {
        let root = StateStore<CounterState, CounterAction>(CounterState(), reducer: reduceCounter)
        let store: AnyStore<CounterState, CounterAction> = root.eraseToAnyStore()
        let counts: AnyStore<Int?, CounterAction> = store.flatMap(state: { $0.count })
        let taps: AnyStore<Int?, Void> = counts.map(actions: { _ in CounterAction.increment })
        let values = Recorder<Int?>()
        taps.subscribe(
            observer: Observer { value in
                values.record(value)
                return .active
            }
        )
        taps.dispatch(())
        taps.dispatch(())
        #expect(await values.waitFor(count: 3) == [0, 1, 2])
    }

    @Test func aDeadObserverHearsNothingMore() async {
        let root = StateStore<CounterState, CounterAction>(CounterState(), reducer: reduceCounter)
        let once = Recorder<Int>()
        let all = Recorder<Int>()
        root.subscribe(
            observer: Observer { state in
                once.record(state.count)
                return .dead
            }
        )
        root.subscribe(
            observer: Observer { state in
                all.record(state.count)
                return ObserverStatus.active
            }
        )
        root.dispatch(.increment)
        #expect(await all.waitFor(count: 2) == [0, 1])
        #expect(once.all == [0])
    }

    @Test func observersAreIdentifiedByTheirID() {
        let id = UUID()
        let first = Observer<CounterState>(id: id) { _ in .active }
        let again = Observer<CounterState>(id: id) { _ in .dead }
        let other = Observer<CounterState> { _ in .active }
        #expect(first == again)
        #expect(Set([first, again, other]).count == 2)
    }

    @Test func equatingFactoriesCompose() {
        let a = CounterState(count: 1, title: "a")
        let b = CounterState(count: 1, title: "b")
        #expect(Equating<CounterState>.keyPath(\.count).predicate(a, b))
        #expect(!Equating<CounterState>.asEquatable.predicate(a, b))
        #expect(Equating<CounterState>.equal(value: { $0.count }).predicate(a, b))
        #expect(!(Equating<CounterState>.keyPath(\.count) && .keyPath(\.title)).predicate(a, b))
        #expect(Equating<CounterState>.with([.keyPath(\.count), .alwaysEqual]).predicate(a, b))
        #expect(!Equating<CounterState>.neverEqual.predicate(a, a))
        #expect(Equating<Tag>.asIdentifiable.predicate(Tag(id: 1, label: "x"), Tag(id: 1, label: "y")))
        let custom = Equating<CounterState>(predicate: { $0.title == $1.title })
        #expect(!custom.predicate(a, b))
    }
}
